(= req-limit* nil)
(defop hello req (pr "hello"))
(serve (int (car argv)))
