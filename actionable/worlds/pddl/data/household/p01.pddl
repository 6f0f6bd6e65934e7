; Put the milk in the fridge. The kitchen is dark; its switch is at the kitchen door.
(define (problem milk-in-fridge)
  (:domain household)
  (:objects kitchen hall - room
            hall-door kitchen-door - place
            counter - surface
            fridge - container
            milk - item
            kitchen-light hall-light - light)
  (:init (place-in hall-door hall) (place-in kitchen-door kitchen) (place-in counter kitchen)
         (place-in fridge kitchen)
         (connected hall-door kitchen-door) (connected kitchen-door hall-door)
         (connected kitchen-door counter) (connected counter kitchen-door)
         (connected kitchen-door fridge) (connected fridge kitchen-door)
         (connected counter fridge) (connected fridge counter)
         (light-in kitchen-light kitchen) (light-in hall-light hall)
         (switch-at kitchen-light kitchen-door) (switch-at hall-light hall-door)
         (lit hall-light)
         (openable fridge) (closed fridge)
         (on milk counter)
         (agent-at hall-door) (hand-empty))
  (:goal (in milk fridge)))
