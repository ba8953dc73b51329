; stdlib/strings.arc — the string utilities of docs/LANGUAGE.md 6.1 (Arc 3.1's
; strings.arc): tokenizing, matching, substitution, URL coding and number
; formatting. Loaded after core.arc and lib.arc; html, srv, app and the news
; site build on these names.
;
; Strings are built by printing into a string port (tostring) rather than by
; repeated +, which would copy the partial result at every step, and loops
; are tail calls of afn so they run in constant stack.

; Raises an error naming fname unless s is a string: (len 5) or (5 0) would
; otherwise fail far from the caller with a message about len or calling.
(def %str-arg (fname s)
  (unless (isa s 'string)
    (err (+ (coerce fname 'string) ": expected a string, got") s)))

; s, or "" for nil. Arc 3.1's functions that only loop over the characters
; of an argument (forlen, each) do nothing for nil, so for those nil is the
; empty string (docs/LANGUAGE.md 6.1); srv.arc urldecodes empty fields.
(def %str-or-nil (fname s)
  (if (no s) "" (do (%str-arg fname s) s)))

; (tokens s (o sep whitec)): the non-empty runs of characters of s that do
; not match sep (a character or a predicate). A character, or whitec itself (the default), is split in one pass by
; %tokens (vm/builtins/string.cpp); any other separator goes character by
; character here.
(def tokens (s (o sep whitec))
  (%str-arg 'tokens s)
  (if (isa sep 'char) (%tokens s sep)
      (is sep %whitec) (%tokens s nil)
      (%tokens-by s (testify sep))))

(def %tokens-by (s sep)
  ; Right to left, so each token is consed on in order. end is the index
  ; just past the token being scanned, or nil between tokens.
  ((afn (i end acc)
     (if (< i 0)
         (if end (cons (cut s 0 end) acc) acc)
         (sep (s i))
         (self (- i 1) nil (if end (cons (cut s (+ i 1) end) acc) acc))
         (self (- i 1) (or end (+ i 1)) acc)))
   (- (len s) 1) nil nil))

; (halve s (o sep whitec)): s split before its first separator, which stays
; at the start of the second part; a one-element list when there is none.
(def halve (s (o sep whitec))
  (%str-arg 'halve s)
  (let i (pos (testify sep) s)
    (if i
        (list (cut s 0 i) (cut s i))
        (list (cut s 0)))))

; (positions test seq): the indices of the elements of a string or list
; that pass test, in increasing order.
(def positions (test seq)
  (let f (testify test)
    (if (isa seq 'string)
        ((afn (i acc)
           (if (< i (len seq))
               (self (+ i 1) (if (f (seq i)) (cons i acc) acc))
               (rev acc)))
         0 nil)
        (alist seq)
        ((afn (xs i acc)
           (if (acons xs)
               (self (cdr xs) (+ i 1) (if (f (car xs)) (cons i acc) acc))
               (rev acc)))
         seq 0 nil)
        (err "positions: expected a string or list, got" seq))))

; (slices s test): s split at every character matching test, keeping the
; empty pieces: (slices ",a," #\,) is ("" "a" ""). Arc 3.1's cuts nil once,
; and a cut of nil is nil, so (slices nil sep) is (nil).
(def slices (s test)
  (if s (%str-arg 'slices s))
  (let f (testify test)
    ; Right to left, as in tokens; end is the index past the current piece.
    ((afn (i end acc)
       (if (< i 0)
           (cons (cut s 0 end) acc)
           (f (s i))
           (self (- i 1) i (cons (cut s (+ i 1) end) acc))
           (self (- i 1) end acc)))
     (- (len s) 1) (len s) nil)))

; (lines s): s split at newlines, with every carriage return removed, so
; text with \r\n line ends splits cleanly. A final newline leaves a last "".
; (lines nil) is (nil), as (slices nil sep) is.
(def lines (s)
  (if s (%str-arg 'lines s))
  (map1 (fn (line) (if (%str-has-char line #\return) (rem #\return line) line))
        (slices s #\newline)))

(def %str-has-char (s c)
  ((afn (i) (and (< i (len s)) (or (is (s i) c) (self (+ i 1))))) 0))

; The value 0-15 of a hexadecimal digit character, or nil.
(def %str-hex-digit (c)
  (let n (coerce c 'int)
    (if (and (>= n 48) (<= n 57))  (- n 48)    ; 0-9
        (and (>= n 97) (<= n 102)) (- n 87)    ; a-f
        (and (>= n 65) (<= n 70))  (- n 55)))) ; A-F

; (urldecode s): + becomes a space and %XX the byte XX. The bytes are
; written as bytes, so a percent-encoded UTF-8 sequence comes out as its
; character.
(def urldecode (s)
  (let s (%str-or-nil 'urldecode s)
    (tostring
      ((afn (i)
         (when (< i (len s))
           (let c (s i)
             (if (is c #\+)
                 (do (writec #\space) (self (+ i 1)))
                 (is c #\%)
                 (do (writeb (%str-url-escape s i)) (self (+ i 3)))
                 (do (writec c) (self (+ i 1)))))))
       0))))

; The byte of the escape %XX that starts at index i of s.
(def %str-url-escape (s i)
  (with (hi (and (< (+ i 2) (len s)) (%str-hex-digit (s (+ i 1))))
         lo (and (< (+ i 2) (len s)) (%str-hex-digit (s (+ i 2)))))
    (if (and hi lo)
        (+ (* hi 16) lo)
        (err "urldecode: bad escape" (cut s i (if (< (+ i 3) (len s)) (+ i 3) (len s)))))))

; (urlencode s): every character as %XX of its code point, in lower-case
; hex with at least two digits (a character above 255 gets more digits).
(def urlencode (s)
  (let s (%str-or-nil 'urlencode s)
    (tostring
      ((afn (i)
         (when (< i (len s))
           (let n (coerce (s i) 'int)
             (writec #\%)
             (if (< n 16) (writec #\0))
             (disp (coerce n 'string 16)))
           (self (+ i 1))))
       0))))

; The expressions testing that literal string pat appears in the value of
; the variable gs from the index held in the variable gb, one comparison
; per character (what litmatch and endmatch unroll into).
(def %str-lit-tests (pat gs gb)
  ((afn (k acc)
     (if (< k 0)
         acc
         (self (- k 1)
               (cons `(is ,(pat k) (,gs ,(if (is k 0) gb `(+ ,gb ,k)))) acc))))
   (- (len pat) 1) nil))

; (litmatch pat str (o start 0)): t if the literal string pat occurs in str
; at start. pat is known when the macro expands, so the comparison is
; unrolled into one test per character. A nil pat is the empty string, as
; in Arc 3.1, whose loop over pat makes no tests for it.
(mac litmatch (pat str (o start 0))
  (unless (or (no pat) (isa pat 'string))
    (err "litmatch: the pattern must be a literal string, got" pat))
  (w/uniq (gs gb)
    `(with (,gs ,str ,gb ,start)
       (and (<= (+ ,gb ,(len pat)) (len ,gs))
            ,@(%str-lit-tests pat gs gb)))))

; (endmatch pat str): t if str ends with the literal string pat; unrolled
; like litmatch (and like it, a nil pat is "").
(mac endmatch (pat str)
  (unless (or (no pat) (isa pat 'string))
    (err "endmatch: the pattern must be a literal string, got" pat))
  (w/uniq (gs gb)
    `(withs (,gs ,str ,gb (- (len ,gs) ,(len pat)))
       (and (>= ,gb 0)
            ,@(%str-lit-tests pat gs gb)))))

; (headmatch pat seq (o start 0)): t if the elements of pat appear in seq
; from index start. nil, not an index error, when pat runs past the end.
(def headmatch (pat seq (o start 0))
  (let n (len pat)
    (and (<= (+ start n) (len seq))
         ((afn (i)
            (or (is i n)
                (and (is (pat i) (seq (+ start i))) (self (+ i 1)))))
          0))))

; (begins seq pat (o start 0)): headmatch with the sequence first.
(def begins (seq pat (o start 0))
  (headmatch pat seq start))

; (findsubseq pat seq (o start 0)): the first index at or after start where
; pat occurs in seq, or nil.
(def findsubseq (pat seq (o start 0))
  (let last (- (len seq) (len pat))
    (if (is (len pat) 0)
        (and (<= start (len seq)) start)
        ; Compare the first element inline: most positions fail there.
        (let c0 (pat 0)
          ((afn (i)
             (if (> i last)
                 nil
                 (and (is (seq i) c0) (headmatch pat seq i))
                 i
                 (self (+ i 1))))
           start)))))

; (posmatch pat seq (o start 0)): where string pat first occurs in seq at
; or after start; if pat is a function, the index of the first element
; that passes it. Like Arc 3.1's, which indexes pat, it takes a list as the
; pattern too, so nil is an empty pattern and matches at start.
(def posmatch (pat seq (o start 0))
  (if (isa pat 'fn)     (pos pat seq start)
      (or (isa pat 'string) (alist pat)) (findsubseq pat seq start)
      (err "posmatch: expected a string, list or function as the pattern, got" pat)))

; (subst new old seq): seq with each occurrence of old replaced by new
; (new first). new is displayed, so it may be any value; old may be a
; string or a character. An empty old (or nil) matches nowhere; a nil seq
; is "" (%str-or-nil).
(def subst (new old seq)
  (withs (seq (%str-or-nil 'subst seq)
          old (if (isa old 'char) (coerce old 'string) (no old) "" old))
    (%str-arg 'subst old)
    (if (is old "")
        (cut seq 0)
        (with (n (len old) c0 (old 0) last (- (len seq) (len old)))
          (tostring
            ((afn (i)
               (when (< i (len seq))
                 (if (and (<= i last) (is (seq i) c0) (headmatch old seq i))
                     (do (disp new) (self (+ i n)))
                     (do (writec (seq i)) (self (+ i 1))))))
             0))))))

; (multisubst pairs seq): seq with substitutions from a list of (old new)
; pairs; at each position the pairs are tried in order and the first whose
; old matches there is replaced.
(def multisubst (pairs seq)
  (let seq (%str-or-nil 'multisubst seq)
    ; Arc 3.1's looks at pairs only at a character of seq.
    (if (is seq "")
        ""
        (do (unless (alist pairs)
              (err "multisubst: expected a list of (old new) pairs, got" pairs))
            (%multisubst pairs seq)))))

; multisubst of a list of pairs in a non-empty string.
(def %multisubst (pairs seq)
  ; Characters become strings and empty olds, which would match everywhere
  ; without consuming anything, are dropped, once rather than per position.
  (let pairs (%str-subst-pairs pairs)
    (tostring
      ((afn (i)
         (when (< i (len seq))
           (let p (%str-matching-pair pairs seq i)
             (if p
                 (do (disp (cadr p)) (self (+ i (len (car p)))))
                 (do (writec (seq i)) (self (+ i 1)))))))
       0))))

; pairs with character olds made strings and empty olds dropped.
(def %str-subst-pairs (pairs)
  (when pairs
    (withs (p    (car pairs)
            old  (if (isa (car p) 'char) (coerce (car p) 'string) (car p))
            rest (%str-subst-pairs (cdr pairs)))
      (unless (isa old 'string)
        (err "multisubst: expected (old new) pairs of strings, got" p))
      (if (is old "") rest (cons (list old (cadr p)) rest)))))

; The first of pairs whose old occurs in seq at index i, or nil.
(def %str-matching-pair (pairs seq i)
  (if (no pairs)
      nil
      (headmatch (caar pairs) seq i)
      (car pairs)
      (%str-matching-pair (cdr pairs) seq i)))

; (blank s): t if s has nothing but whitespace (also for "" and nil).
(def blank (s)
  (no (find nonwhite s)))

; (nonblank s): s, or nil if it is blank.
(def nonblank (s)
  (unless (blank s) s))

; (trim s (o where 'both) (o test whitec)): s without the characters that
; pass test at its front, its end, or both. A string made only of such
; characters trims to "" whichever end is asked for, and so does nil. As in
; Arc 3.1, any other where (nil, say) trims neither end.
(def trim (s (o where 'both) (o test whitec))
  (withs (s    (%str-or-nil 'trim s)
          f    (testify test)
          n    (len s)
          keep ((afn (i) (if (and (< i n) (f (s i))) (self (+ i 1)) i)) 0))
    (if (is keep n)
        ""
        ; s has a character at keep that stays, so the scan from the end
        ; stops after it.
        (cut s
             (if (in where 'front 'both) keep 0)
             (if (in where 'end 'both)
                 ((afn (i) (if (f (s (- i 1))) (self (- i 1)) i)) n)
                 n)))))

; The nearest integer to a number >= 0, halves rounded up.
(def %str-round-half-up (x)
  (let i (trunc x)
    (if (>= (- x i) 1/2) (+ i 1) i)))

; The decimal digits of an integer >= 0 with a comma every three places.
(def %str-commas (i)
  (let s (coerce i 'string)
    (tostring
      ((afn (k)
         (when (< k (len s))
           (if (and (> k 0) (is (mod (- (len s) k) 3) 0)) (writec #\,))
           (writec (s k))
           (self (+ k 1))))
       0))))

; (num n (o digits 2) (o trail-zeros nil) (o init-zero nil)): n with comma
; thousands separators and at most digits decimals, rounded half up.
; trail-zeros pads the decimals to digits places; init-zero keeps the 0 of
; a number below 1 before its point. A value that rounds to nothing shows
; as "0", and a negative one that rounds to zero loses its minus sign.
(def num (n (o digits 2) (o trail-zeros nil) (o init-zero nil))
  (unless (number n) (err "num: expected a number, got" n))
  (unless (isa digits 'int) (err "num: digits must be an integer, got" digits))
  ; Work in exact integers: scaled is |n| * 10^places rounded, so the
  ; integer part and the decimals are its quotient and remainder.
  (withs (places (if (> digits 0) digits 0)
          unit   (expt 10 places)
          scaled (%str-round-half-up (* (if (< n 0) (- n) n) unit))
          ip     (trunc (/ scaled unit))
          frac   (%str-num-decimals (- scaled (* ip unit)) places trail-zeros))
    (+ (if (and (< n 0) (> scaled 0)) "-" "")
       (if (or (> ip 0) init-zero (is frac "")) (%str-commas ip) "")
       (if (is frac "") "" ".")
       frac)))

; The decimals of num: fraction f (an integer below 10^places) written with
; places digits, trailing zeros dropped unless trail-zeros.
(def %str-num-decimals (f places trail-zeros)
  (if (is places 0)
      ""
      (withs (digits (coerce f 'string)
              padded (+ (newstring (- places (len digits)) #\0) digits))
        (if trail-zeros
            padded
            ((afn (k)
               (if (and (> k 0) (is (padded (- k 1)) #\0))
                   (self (- k 1))
                   (cut padded 0 k)))
             (len padded))))))

; (pluralize n str): str, with an s added unless n is 1 or a one-element list.
(def pluralize (n str)
  (if (or (is n 1) (single n))
      str
      (string str "s")))

; (plural n str): "N str", pluralized: (plural 3 "dog") is "3 dogs".
(def plural (n str)
  (string n #\space (pluralize n str)))
