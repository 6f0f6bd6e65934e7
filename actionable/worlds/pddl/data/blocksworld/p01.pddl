; Sussman's anomaly (Sussman 1975): C lies on A; build A on B on C.
(define (problem sussman)
  (:domain blocksworld)
  (:objects a b c)
  (:init (ontable a) (ontable b) (on c a) (clear b) (clear c) (handempty))
  (:goal (and (on a b) (on b c))))
