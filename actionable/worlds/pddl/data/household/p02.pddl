; Tidy the kitchen: the milk back in the fridge, the cup from the sink to the table, the fridge
; closed and the kitchen light off again.
(define (problem tidy-kitchen)
  (:domain household)
  (:objects kitchen hall - room
            hall-door kitchen-door - place
            table counter - surface
            fridge sink - container
            milk cup - item
            kitchen-light hall-light - light)
  (:init (place-in hall-door hall) (place-in kitchen-door kitchen) (place-in table kitchen)
         (place-in counter kitchen) (place-in fridge kitchen) (place-in sink kitchen)
         (connected hall-door kitchen-door) (connected kitchen-door hall-door)
         (connected kitchen-door table) (connected table kitchen-door)
         (connected kitchen-door counter) (connected counter kitchen-door)
         (connected table counter) (connected counter table)
         (connected counter fridge) (connected fridge counter)
         (connected counter sink) (connected sink counter)
         (light-in kitchen-light kitchen) (light-in hall-light hall)
         (switch-at kitchen-light kitchen-door) (switch-at hall-light hall-door)
         (lit hall-light)
         (openable fridge) (closed fridge)
         (on milk counter) (in cup sink)
         (agent-at hall-door) (hand-empty))
  (:goal (and (in milk fridge) (on cup table) (closed fridge) (not (lit kitchen-light)))))
