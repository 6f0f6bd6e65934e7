; Four blocks: reverse the tower D-C-B-A (A on the table) into A-B-C-D (D on the table).
(define (problem reverse-4)
  (:domain blocksworld)
  (:objects a b c d)
  (:init (ontable a) (on b a) (on c b) (on d c) (clear d) (handempty))
  (:goal (and (on a b) (on b c) (on c d))))
