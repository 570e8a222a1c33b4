; The Sussman anomaly: C on A, A and B on the table; goal A on B on C.
(define (problem sussman)
  (:domain blocks)
  (:objects a b c)
  (:init (clear c) (clear b) (on c a) (ontable a) (ontable b) (handempty))
  (:goal (and (on a b) (on b c))))
