; richards: Martin Richards' simulation of an operating system's task
; scheduler (an idle task, a worker, two handlers and two devices passing
; packets), as the Are We Fast Yet suite has it. Objects are tables whose
; fields are read b!x and written (= b!x v); methods are functions taking
; the object, except a task's behaviour, which the original dispatches on
; the task's kind: that is a closure held in the control block's fn field.

(= rich-iterations 20)

(= rich-idler 1 rich-worker 2 rich-handler-a 3 rich-handler-b 4
   rich-device-a 5 rich-device-b 6)
(= rich-device-packet-kind 0 rich-work-packet-kind 1)
(= rich-data-size 4)

(def rich-append (packet queue-head)
  (= packet!link nil)
  (if (no queue-head)
      packet
      (let mouse queue-head
        (whilet link mouse!link
          (= mouse link))
        (= mouse!link packet)
        queue-head)))

(def rich-packet (link identity kind)
  (let data (table)
    (for i 1 rich-data-size
      (= (data i) 0))
    (obj link link identity identity kind kind datum 1 data data)))

; A task's state: three flags, set together by the transitions below.
(def rich-state ()
  (obj packet-pending t task-waiting nil task-holding nil))

(def rich-running (s)
  (= s!packet-pending nil s!task-waiting nil s!task-holding nil)
  s)

(def rich-waiting (s)
  (= s!packet-pending nil s!task-waiting t s!task-holding nil)
  s)

(def rich-waiting-with-packet (s)
  (= s!packet-pending t s!task-waiting t s!task-holding nil)
  s)

(def rich-packet-pending (s)
  (= s!packet-pending t s!task-waiting nil s!task-holding nil)
  s)

(def rich-holding-or-waiting (s)
  (or s!task-holding (and (no s!packet-pending) s!task-waiting)))

(def rich-waiting-with-packet? (s)
  (and s!packet-pending s!task-waiting (no s!task-holding)))

(def rich-tcb (link identity priority input state data f)
  (obj link link identity identity priority priority input input
       packet-pending state!packet-pending task-waiting state!task-waiting
       task-holding state!task-holding data data fn f))

(def rich-add-input (task packet old-task)
  (if (no task!input)
      (do (= task!input packet
             task!packet-pending t)
          (if (> task!priority old-task!priority) task old-task))
      (do (= task!input (rich-append packet task!input))
          old-task)))

(def rich-run-task (task)
  (let message nil
    (when (rich-waiting-with-packet? task)
      (= message task!input
         task!input message!link)
      (if (no task!input)
          (rich-running task)
          (rich-packet-pending task)))
    (task!fn message task!data)))

(def rich-scheduler ()
  (obj task-list nil current-task nil current-task-identity 0
       task-table (table) queue-count 0 hold-count 0))

(def rich-create-task (s identity priority work state data f)
  (let tcb (rich-tcb s!task-list identity priority work state data f)
    (= s!task-list tcb)
    (= (s!task-table identity) tcb)))

(def rich-create-device (s identity priority work state)
  (rich-create-task s identity priority work state (obj pending nil)
    (fn (packet data)
      (if packet
          (do (= data!pending packet)
              (rich-hold-self s))
          (let p data!pending
            (if (no p)
                (rich-wait s)
                (do (= data!pending nil)
                    (rich-queue-packet s p))))))))

(def rich-create-handler (s identity priority work state)
  (rich-create-task s identity priority work state
                    (obj work-in nil device-in nil)
    (fn (packet data)
      (when packet
        (if (is packet!kind rich-work-packet-kind)
            (= data!work-in (rich-append packet data!work-in))
            (= data!device-in (rich-append packet data!device-in))))
      (let work-packet data!work-in
        (if (no work-packet)
            (rich-wait s)
            (let n work-packet!datum
              (if (> n rich-data-size)
                  (do (= data!work-in work-packet!link)
                      (rich-queue-packet s work-packet))
                  (let device-packet data!device-in
                    (if (no device-packet)
                        (rich-wait s)
                        (do (= data!device-in device-packet!link)
                            (= device-packet!datum (work-packet!data n))
                            (= work-packet!datum (+ n 1))
                            (rich-queue-packet s device-packet)))))))))))

; Arc has no bitwise operators: exclusive or one bit at a time.
(def rich-xor (a b)
  (with (r 0 bit 1)
    (while (or (> a 0) (> b 0))
      (unless (is (mod a 2) (mod b 2))
        (++ r bit))
      (= a (trunc (/ a 2)) b (trunc (/ b 2)) bit (* bit 2)))
    r))

(def rich-create-idler (s identity priority work state)
  (rich-create-task s identity priority work state (obj control 1 count 10000)
    (fn (packet data)
      (-- data!count)
      (if (is data!count 0)
          (rich-hold-self s)
          (even data!control)
          (do (= data!control (/ data!control 2))
              (rich-release s rich-device-a))
          (do (= data!control (rich-xor (/ (- data!control 1) 2) 53256))
              (rich-release s rich-device-b))))))

(def rich-create-worker (s identity priority work state)
  (rich-create-task s identity priority work state
                    (obj destination rich-handler-a count 0)
    (fn (packet data)
      (if (no packet)
          (rich-wait s)
          (do (= data!destination (if (is data!destination rich-handler-a)
                                      rich-handler-b
                                      rich-handler-a))
              (= packet!identity data!destination
                 packet!datum 1)
              (for i 1 rich-data-size
                (++ data!count)
                (when (> data!count 26)
                  (= data!count 1))
                (= (packet!data i) (- (+ 65 data!count) 1)))
              (rich-queue-packet s packet))))))

(def rich-find-task (s identity)
  (or (s!task-table identity)
      (err "find-task failed")))

(def rich-hold-self (s)
  (++ s!hold-count)
  (let task s!current-task
    (= task!task-holding t)
    task!link))

(def rich-queue-packet (s packet)
  (let task (rich-find-task s packet!identity)
    (++ s!queue-count)
    (= packet!link nil
       packet!identity s!current-task-identity)
    (rich-add-input task packet s!current-task)))

(def rich-release (s identity)
  (let task (rich-find-task s identity)
    (= task!task-holding nil)
    (if (> task!priority s!current-task!priority)
        task
        s!current-task)))

(def rich-wait (s)
  (let task s!current-task
    (= task!task-waiting t)
    task))

(def rich-schedule (s)
  (= s!current-task s!task-list)
  (while s!current-task
    (if (rich-holding-or-waiting s!current-task)
        (= s!current-task s!current-task!link)
        (do (= s!current-task-identity s!current-task!identity)
            (= s!current-task (rich-run-task s!current-task))))))

(def rich-start (s)
  (rich-create-idler s rich-idler 0 nil (rich-running (rich-state)))
  (let queue (rich-packet nil rich-worker rich-work-packet-kind)
    (= queue (rich-packet queue rich-worker rich-work-packet-kind))
    (rich-create-worker s rich-worker 1000 queue
                        (rich-waiting-with-packet (rich-state))))
  (let queue (rich-packet nil rich-device-a rich-device-packet-kind)
    (repeat 2
      (= queue (rich-packet queue rich-device-a rich-device-packet-kind)))
    (rich-create-handler s rich-handler-a 2000 queue
                         (rich-waiting-with-packet (rich-state))))
  (let queue (rich-packet nil rich-device-b rich-device-packet-kind)
    (repeat 2
      (= queue (rich-packet queue rich-device-b rich-device-packet-kind)))
    (rich-create-handler s rich-handler-b 3000 queue
                         (rich-waiting-with-packet (rich-state))))
  (rich-create-device s rich-device-a 4000 nil (rich-waiting (rich-state)))
  (rich-create-device s rich-device-b 5000 nil (rich-waiting (rich-state)))
  (rich-schedule s)
  (and (is s!queue-count 23246) (is s!hold-count 9297)))

(repeat rich-iterations
  (unless (rich-start (rich-scheduler))
    (err "richards: wrong result")))
(prn "richards ok")
