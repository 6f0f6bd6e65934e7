; A small household, written for actionable: rooms with a ceiling light each (switched at a
; place by the door), places the agent stands at (surfaces things go ON, containers things go
; IN; some containers, such as the fridge, open and close), and one agent with one hand.
; Things are found only in a lit room; putting down needs no light.
(define (domain household)
  (:requirements :strips :typing :negative-preconditions :existential-preconditions)
  (:types room place item light - object
          surface container - place)
  (:predicates
    (agent-at ?p - place)                 ; where the agent stands
    (connected ?p ?q - place)             ; static: one move from ?p to ?q
    (place-in ?p - place ?r - room)       ; static
    (light-in ?l - light ?r - room)       ; static
    (switch-at ?l - light ?p - place)     ; static: the light's switch is at ?p
    (lit ?l - light)
    (openable ?c - container)             ; static
    (closed ?c - container)
    (on ?i - item ?s - surface)
    (in ?i - item ?c - container)
    (holding ?i - item)
    (hand-empty))

  (:action go
    :parameters (?from ?to - place)
    :precondition (and (agent-at ?from) (connected ?from ?to))
    :effect (and (agent-at ?to) (not (agent-at ?from))))

  (:action switch-on
    :parameters (?l - light)
    :precondition (and (not (lit ?l)) (exists (?p - place) (and (agent-at ?p) (switch-at ?l ?p))))
    :effect (lit ?l))

  (:action switch-off
    :parameters (?l - light)
    :precondition (and (lit ?l) (exists (?p - place) (and (agent-at ?p) (switch-at ?l ?p))))
    :effect (not (lit ?l)))

  (:action open
    :parameters (?c - container)
    :precondition (and (agent-at ?c) (openable ?c) (closed ?c))
    :effect (not (closed ?c)))

  (:action close
    :parameters (?c - container)
    :precondition (and (agent-at ?c) (openable ?c) (not (closed ?c)))
    :effect (closed ?c))

  (:action take-from
    :parameters (?i - item ?s - surface)
    :precondition (and (agent-at ?s) (on ?i ?s) (hand-empty)
                       (exists (?r - room ?l - light) (and (place-in ?s ?r) (light-in ?l ?r) (lit ?l))))
    :effect (and (holding ?i) (not (on ?i ?s)) (not (hand-empty))))

  (:action take-out
    :parameters (?i - item ?c - container)
    :precondition (and (agent-at ?c) (in ?i ?c) (not (closed ?c)) (hand-empty)
                       (exists (?r - room ?l - light) (and (place-in ?c ?r) (light-in ?l ?r) (lit ?l))))
    :effect (and (holding ?i) (not (in ?i ?c)) (not (hand-empty))))

  (:action put-on
    :parameters (?i - item ?s - surface)
    :precondition (and (agent-at ?s) (holding ?i))
    :effect (and (on ?i ?s) (hand-empty) (not (holding ?i))))

  (:action put-in
    :parameters (?i - item ?c - container)
    :precondition (and (agent-at ?c) (holding ?i) (not (closed ?c)))
    :effect (and (in ?i ?c) (hand-empty) (not (holding ?i)))))
