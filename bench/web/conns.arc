(= req-limit* nil max-conns* 20000 max-conns-per-ip* nil idle-timeout* 600)
(defop hello req (pr "hello"))
(serve (int (car argv)))
