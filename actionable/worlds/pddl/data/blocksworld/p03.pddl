; Five blocks in two towers (B on A, D on C on E); build two new towers: A on D, C on B (E free).
(define (problem two-towers-5)
  (:domain blocksworld)
  (:objects a b c d e)
  (:init (ontable a) (on b a) (ontable e) (on c e) (on d c) (clear b) (clear d) (handempty))
  (:goal (and (on a d) (on c b) (ontable e))))
