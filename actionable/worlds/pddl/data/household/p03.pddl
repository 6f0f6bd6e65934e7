; Three rooms: bring the book from the bedroom shelf to the living-room table and the apple from
; the fridge into the fruit bowl in the living room (a container that
; does not close); leave the bedroom light as it was (off).
(define (problem book-and-apple)
  (:domain household)
  (:objects kitchen living bedroom - room
            kitchen-door living-door bedroom-door - place
            shelf table - surface
            fridge bowl - container
            book apple - item
            kitchen-light living-light bedroom-light - light)
  (:init (place-in kitchen-door kitchen) (place-in fridge kitchen)
         (place-in living-door living) (place-in table living) (place-in bowl living)
         (place-in bedroom-door bedroom) (place-in shelf bedroom)
         (connected living-door kitchen-door) (connected kitchen-door living-door)
         (connected living-door bedroom-door) (connected bedroom-door living-door)
         (connected kitchen-door fridge) (connected fridge kitchen-door)
         (connected living-door table) (connected table living-door)
         (connected table bowl) (connected bowl table)
         (connected bedroom-door shelf) (connected shelf bedroom-door)
         (light-in kitchen-light kitchen) (light-in living-light living) (light-in bedroom-light bedroom)
         (switch-at kitchen-light kitchen-door) (switch-at living-light living-door)
         (switch-at bedroom-light bedroom-door)
         (lit kitchen-light) (lit living-light)
         (openable fridge) (closed fridge)
         (on book shelf) (in apple fridge)
         (agent-at living-door) (hand-empty))
  (:goal (and (on book table) (in apple bowl) (not (lit bedroom-light)))))
