; Grid navigation: robots move between adjacent cells that no other robot occupies. Uses
; typing with a hierarchy, constants, negative preconditions, equality and action costs read
; from a static function; waiting is free.
(define (domain grid)
  (:requirements :strips :typing :negative-preconditions :equality :action-costs)
  (:types cell - place
          robot - agent
          place agent)
  (:constants dock - cell)
  (:predicates (at ?r - robot ?c - place) (adjacent ?a ?b - cell) (occupied ?c - place)
               (charged ?r - robot))
  (:functions (total-cost) - number
              (move-cost ?a ?b - cell) - number)
  (:action move
    :parameters (?r - robot ?from ?to - cell)
    :precondition (and (at ?r ?from) (adjacent ?from ?to) (not (occupied ?to))
                       (not (= ?from ?to)))
    :effect (and (not (at ?r ?from)) (not (occupied ?from)) (at ?r ?to) (occupied ?to)
                 (increase (total-cost) (move-cost ?from ?to))))
  (:action charge
    :parameters (?r - robot)
    :precondition (and (at ?r dock) (not (charged ?r)))
    :effect (and (charged ?r) (increase (total-cost) 3)))
  (:action wait
    :parameters (?r - robot ?c - cell)
    :precondition (at ?r ?c)
    :effect (and (increase (total-cost) 0))))
