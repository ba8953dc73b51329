; Sockets (docs/LANGUAGE.md 1.10, 4.11): open-socket, socket-port, socket-accept,
; connect-socket, client-ip, close and force-close on socket ports, and
; w/socket. Everything listens on 127.0.0.1 (w/socket, which takes no host,
; only binds and closes again), on port 0, so no fixed port is needed.
; Waits are loops over (sleep ...) with a deadline, as in threads.arc, so
; the file holds under --gc-stress and never hangs the suite.

; t once (f) is true; nil if that takes over a minute
(def wait-for (f)
  (let t0 (msec)
    (until (or (f) (> (- (msec) t0) 60000)) (sleep 0.001))
    (no (no (f)))))

; A connection from a client to the listening socket ls: (client server),
; client being connect-socket's (in out), server socket-accept's (in out ip),
; the accept done in a thread of its own.
(def connect-pair (ls)
  (let acc nil
    (thread (= acc (socket-accept ls)))
    (let cl (connect-socket "127.0.0.1" (socket-port ls))
      (wait-for (fn () acc))
      (list cl acc))))

; --- a listening socket ---
(= ls (open-socket 0 "127.0.0.1"))
(type ls) ; expect: socket
(let p (socket-port ls) (list (exact p) (> p 0) (< p 65536))) ; expect: (t t t)
(is (socket-port ls) (socket-port ls)) ; expect: t
(cut (tostring (disp ls)) 0 8) ; expect: "#<socket"

; --- a connection ---
(= conn (connect-pair ls) cl (car conn) sv (cadr conn))
(len cl) ; expect: 2
(map type cl) ; expect: (input output)
(len sv) ; expect: 3
(map type (firstn 2 sv)) ; expect: (input output)
(sv 2) ; expect: "127.0.0.1"
(client-ip (sv 0)) ; expect: "127.0.0.1"
(client-ip (sv 1)) ; expect: "127.0.0.1"
(client-ip (cl 0)) ; expect: "127.0.0.1"
(client-ip (cl 1)) ; expect: "127.0.0.1"

; client to server: a line
(do (disp "ping\n" (cl 1)) (flushout (cl 1)) (readline (sv 0))) ; expect: "ping"
; server to client: a written value, read back
(do (write '(a "b c" 3 #\d) (sv 1)) (flushout (sv 1)) (read (cl 0))) ; expect: (a "b c" 3 #\d)
; text beyond ASCII both ways
(do (disp "λ😀\n" (sv 1)) (flushout (sv 1)) (readline (cl 0))) ; expect: "λ😀"
; every byte, both ways, intact
(do (for b 0 255 (writeb b (cl 1)))
    (flushout (cl 1))
    (let got nil
      (repeat 256 (push (readb (sv 0)) got))
      (let bs (rev got) (list (len bs) (car bs) (last bs) (iso bs (range 0 255)))))) ; expect: (256 0 255 t)
(do (for b 0 255 (writeb (- 255 b) (sv 1)))
    (flushout (sv 1))
    (let got nil
      (repeat 256 (push (readb (cl 0)) got))
      (list (len got) (car got) (last got) (iso got (range 0 255))))) ; expect: (256 0 255 t)
; a long line, written by one thread while this one reads it
(let big (newstring 20000 #\x)
  (thread (disp big (cl 1)) (disp "\n" (cl 1)) (flushout (cl 1)))
  (len (readline (sv 0)))) ; expect: 20000

; the client closes its output: the server reads the end of input, and can
; still answer (a half-closed connection)
(do (disp "last" (cl 1)) (close (cl 1)) (list (readline (sv 0)) (readc (sv 0)) (readline (sv 0)))) ; expect: ("last" nil nil)
(do (disp "bye\n" (sv 1)) (close (sv 1)) (list (readline (cl 0)) (readc (cl 0)))) ; expect: ("bye" nil)
(close (cl 0) (sv 0)) ; expect: nil
(close (cl 0)) ; expect: nil
; writing to a closed port is an error
(disp "x" (cl 1)) ; error: closed

; --- an echo server in a thread, the client in this one ---
(= conn (connect-pair ls) cl (car conn) sv (cadr conn))
(= echo (thread (let (i o ip) sv
                  (whilet line (readline i)
                    (disp (upcase line) o) (disp "\n" o) (flushout o))
                  (close i o))))
(map (fn (s) (disp s (cl 1)) (disp "\n" (cl 1)) (flushout (cl 1)) (readline (cl 0)))
     '("one" "two" "three")) ; expect: ("ONE" "TWO" "THREE")
(do (close (cl 1)) (list (readline (cl 0)) (wait-for (fn () (dead echo))))) ; expect: (nil t)
(close (cl 0)) ; expect: nil

; --- force-close: unsent output is dropped, the peer sees the end (or a reset) ---
; (disp and write flush each time, as in Arc 3.1; writeb only buffers)
(= conn (connect-pair ls) cl (car conn) sv (cadr conn))
(do (each c "never sent" (writeb (int c) (cl 1)))   ; buffered (writeb does not flush)
    (force-close (cl 0) (cl 1))
    (let got (on-err (fn (e) 'reset) (fn () (readc (sv 0))))
      (if (in got nil 'reset) 'nil-or-reset got))) ; expect: nil-or-reset
(close (sv 0) (sv 1)) ; expect: nil
; and from the server's side
(= conn (connect-pair ls) cl (car conn) sv (cadr conn))
(do (force-close (sv 1))
    (let got (on-err (fn (e) 'reset) (fn () (readc (cl 0))))
      (if (in got nil 'reset) 'nil-or-reset got))) ; expect: nil-or-reset
(close (cl 0) (cl 1) (sv 0)) ; expect: nil
(force-close) ; expect: nil

; --- two connections at once, answered in either order ---
(let (p1 p2) (list (connect-pair ls) (connect-pair ls))
  (disp "to-2\n" ((cadr p2) 1)) (flushout ((cadr p2) 1))
  (disp "to-1\n" ((cadr p1) 1)) (flushout ((cadr p1) 1))
  (do1 (list (readline ((car p1) 0)) (readline ((car p2) 0)))
       (each p (list p1 p2) (apply close (join (car p) (firstn 2 (cadr p))))))) ; expect: ("to-1" "to-2")

; --- closing the listening socket ---
(= port (socket-port ls))
(close ls) ; expect: nil
(close ls) ; expect: nil
(socket-accept ls) ; error: socket-accept: the socket is closed
; nothing listens there any more
(connect-socket "127.0.0.1" port) ; error: connect-socket: cannot connect

; --- w/socket: the socket while the body runs, closed after ---
(w/socket s 0 (list (type s) (> (socket-port s) 0))) ; expect: (socket t)
(let saved nil
  (w/socket s 0 (= saved s))
  (on-err details (fn () (socket-accept saved)))) ; expect: "socket-accept: the socket is closed"
(let saved nil
  (on-err (fn (e) nil) (fn () (w/socket s 0 (= saved s) (err "inside"))))
  (on-err details (fn () (socket-accept saved)))) ; expect: "socket-accept: the socket is closed"

; --- bad arguments ---
(open-socket) ; error:
(open-socket 70000) ; error: open-socket: expected a port number (0 to 65535)
(open-socket -1) ; error: open-socket: expected a port number (0 to 65535)
(open-socket "80") ; error: open-socket: expected an integer
(open-socket 0 5) ; error: open-socket: expected a string
(socket-port 5) ; error: socket-port: expected a socket
(socket-port (stdin)) ; error: socket-port: expected a socket
(socket-accept 'x) ; error: socket-accept: expected a socket
(client-ip 5) ; error: client-ip: expected a socket port
(client-ip (stdin)) ; error: client-ip: expected a socket port
(client-ip (instring "")) ; error: client-ip: expected a socket port
(connect-socket 5 80) ; error: connect-socket: expected a string
(connect-socket "127.0.0.1" "80") ; error: connect-socket: expected an integer
(connect-socket "127.0.0.1" 70000) ; error: connect-socket: expected a port number (0 to 65535)
(connect-socket "127.0.0.1") ; error:
(close 5) ; error: close: expected a port or socket
(force-close 'x) ; error: force-close: expected a port or socket
