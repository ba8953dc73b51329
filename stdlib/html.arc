; stdlib/html.arc — HTML generation, docs/LANGUAGE.md 6.4 (Arc 3.1's html.arc):
; colors, the tag macro family with its attribute registry, escaping, and
; the layout and form widgets that srv.arc, app.arc and the news site print
; their pages with. Loaded after strings.arc and pprint.arc.
;
; A page is printed, never built: every macro here expands to code that
; writes to the current output, and whatever can be known when the macro
; expands (the tag name, the attributes allowed, literal attribute values)
; is turned into one constant string then, so rendering a tag with constant
; attributes costs a single pr.

; --- Colors ------------------------------------------------------------------

; (color r g b): a color, a table with keys r g b, each component clamped
; to 0-255 so that hexrep always finds it in hexreps.
(def color (r g b)
  (let c (table)
    (= (c 'r) (%html-clamp r)
       (c 'g) (%html-clamp g)
       (c 'b) (%html-clamp b))
    c))

(def %html-clamp (x)
  (if (< x 0) 0 (> x 255) 255 x))

; (dehex str): the number str spells in hexadecimal, or nil if it spells
; none (coerce raises an error on such a string).
(def dehex (str)
  (errsafe (coerce str 'int 16)))

; (hex>color str): the color written as six hex digits "rrggbb", or nil.
; Each character is checked, since dehex alone would also take a sign.
; Memoized: profiles keep colors as such strings and pages convert them at
; every view.
(defmemo hex>color (str)
  (and (isa str 'string)
       (is (len str) 6)
       (all %html-hex-digit str)
       (color (dehex (cut str 0 2))
              (dehex (cut str 2 4))
              (dehex (cut str 4 6)))))

(def %html-hex-digit (c)
  (or (<= #\0 c #\9) (<= #\a c #\f) (<= #\A c #\F)))

; (gray n): the gray (color n n n). Memoized, so each shade is one table.
(defmemo gray (n)
  (color n n n))

(= white    (gray 255)
   black    (gray 0)
   linkblue (color 0 0 190)
   orange   (color 255 102 0)
   darkred  (color 180 0 0)
   darkblue (color 0 0 120))

; hexreps: 0-255 -> the two lower-case hex digits of it, so hexrep is three
; lookups instead of three number conversions.
(= hexreps (table))
(for i 0 255
  (= (hexreps i) (let s (coerce i 'string 16)
                   (if (< i 16) (+ "0" s) s))))

; (hexrep col): the "rrggbb" text of a color. Memoized: the same few colors
; are printed in every page.
(defmemo hexrep (col)
  (+ (hexreps (col 'r)) (hexreps (col 'g)) (hexreps (col 'b))))

; --- The attribute registry --------------------------------------------------

; opmeths*: (tagname attribute) -> the printer of that attribute on that
; tag. A printer is a function of the attribute's name and value form that
; returns the code printing the attribute (with its leading space); tag
; consults the registry when it expands, so registering an attribute
; affects only code compiled afterwards.
(= opmeths* (table))

; (opmeth tag attr): the printer registered for attr on tag (both
; evaluated), or nil.
(mac opmeth (tag attr)
  `(opmeths* (list ,tag ,attr)))

; (attribute tag attr printer): register printer for attr on tag; tag and
; attr are names, not evaluated.
(mac attribute (tag attr printer)
  `(= (opmeths* (list ',tag ',attr)) ,printer))

; The printers. Each returns code; the constant part of what it prints
; (" key=" and the like) is computed here, once, rather than at run time.

; (opcolor key val): " key=#rrggbb" when the color val is non-nil.
(def opcolor (key val)
  (w/uniq g
    `(let ,g ,val
       (if ,g (pr ,(string " " key "=#") (hexrep ,g))))))

; (opstring key val): ' key="val"' when val is non-nil. val is printed as
; it is, not escaped: the caller decides (see esc-attr).
(def opstring (key val)
  (w/uniq g
    `(let ,g ,val
       (if ,g (pr ,(string " " key "=\"") ,g "\"")))))

; (opnum key val): " key=val" when val is non-nil.
(def opnum (key val)
  (w/uniq g
    `(let ,g ,val
       (if ,g (pr ,(string " " key "=") ,g)))))

; (opsym key val): " key=val", even when val is nil.
(def opsym (key val)
  `(pr ,(string " " key "=") ,val))

; (opsel key val): " selected" when val is true.
(def opsel (key val)
  `(if ,val (pr " selected")))

; (opcheck key val): " checked" when val is true.
(def opcheck (key val)
  `(if ,val (pr " checked")))

; (opesc key val): ' key="val"' when val is non-nil, with a string val
; printed by pr-escaped so that it cannot end the attribute or the tag.
(def opesc (key val)
  (w/uniq g
    `(let ,g ,val
       (when ,g
         (pr ,(string " " key "=\""))
         (if (isa ,g 'string) (pr-escaped ,g) (pr ,g))
         (pr "\"")))))

; The entity for each character pr-escaped replaces, or nil.
(def %html-attr-entity (c)
  (case c
    #\< "&#60;"
    #\> "&#62;"
    #\" "&#34;"
    #\& "&#38;"))

; The entity for each character eschtml replaces, or nil.
(def %html-entity (c)
  (case c
    #\< "&#60;"
    #\> "&#62;"
    #\" "&#34;"
    #\' "&#39;"
    #\& "&#38;"))

; The entity for each character esc-tags replaces, or nil.
(def %html-tag-entity (c)
  (case c
    #\< "&#60;"
    #\> "&#62;"
    #\& "&#38;"))

; t if some character of string s has an entity under entity.
(def %html-needs-esc (s entity)
  (let n (len s)
    ((afn (i) (and (< i n) (or (entity (s i)) (self (+ i 1))))) 0)))

; Prints string s with the characters entity knows replaced by their
; entities. Most strings need no replacing, and those are printed whole.
(def %html-pr-esc (s entity)
  (if (%html-needs-esc s entity)
      (let n (len s)
        ((afn (i)
           (when (< i n)
             (let c (s i)
               (aif (entity c) (disp it) (writec c)))
             (self (+ i 1))))
         0))
      (disp s)))

; The string s with the characters entity knows replaced; nil counts as
; the empty string, as it does for each.
(def %html-esc (fname s entity)
  (if (no s) ""
      (isa s 'string)
      (if (%html-needs-esc s entity)
          (tostring (%html-pr-esc s entity))
          s)
      (err (+ (coerce fname 'string) ": expected a string, got") s)))

; (pr-escaped x): print string x with < > " & as the numeric entities
; &#60; &#62; &#34; &#38;.
(def pr-escaped (x)
  (if (isa x 'string)
      (%html-pr-esc x %html-attr-entity)
      (each c x (aif (%html-attr-entity c) (disp it) (disp c)))))

; Attributes allowed on each tag, with their printers (docs/LANGUAGE.md 6.4). style
; is allowed everywhere without being registered (see tag-options).
(attribute a        href          opstring)
(attribute a        rel           opstring)
(attribute a        class         opstring)
(attribute a        id            opsym)
(attribute a        onclick       opstring)
(attribute body     alink         opcolor)
(attribute body     bgcolor       opcolor)
(attribute body     leftmargin    opnum)
(attribute body     link          opcolor)
(attribute body     marginheight  opnum)
(attribute body     marginwidth   opnum)
(attribute body     topmargin     opnum)
(attribute body     vlink         opcolor)
(attribute font     color         opcolor)
(attribute font     face          opstring)
(attribute font     size          opnum)
(attribute form     action        opstring)
(attribute form     method        opsym)
(attribute img      align         opsym)
(attribute img      border        opnum)
(attribute img      height        opnum)
(attribute img      width         opnum)
(attribute img      vspace        opnum)
(attribute img      hspace        opnum)
(attribute img      src           opstring)
(attribute input    name          opstring)
(attribute input    size          opnum)
(attribute input    type          opsym)
(attribute input    value         opesc)
(attribute input    checked       opcheck)
(attribute select   name          opstring)
(attribute option   selected      opsel)
(attribute table    bgcolor       opcolor)
(attribute table    border        opnum)
(attribute table    cellpadding   opnum)
(attribute table    cellspacing   opnum)
(attribute table    width         opstring)
(attribute textarea cols          opnum)
(attribute textarea name          opstring)
(attribute textarea rows          opnum)
(attribute textarea wrap          opsym)
(attribute td       align         opsym)
(attribute td       bgcolor       opcolor)
(attribute td       colspan       opnum)
(attribute td       width         opnum)
(attribute td       valign        opsym)
(attribute td       class         opstring)
(attribute tr       bgcolor       opcolor)
(attribute hr       color         opcolor)
(attribute span     class         opstring)
(attribute span     align         opstring)
(attribute span     id            opsym)
(attribute rss      version       opstring)

; --- Tags ----------------------------------------------------------------------

; (literal x): t if the form x evaluates to itself or to a constant: a
; non-symbol atom, nil, t, or a quoted form.
(def literal (x)
  (if (isa x 'sym)  (in x nil t)
      (acons x)     (is (car x) 'quote)
      t))

; (precomputable-tagopt val): t if an attribute with the value form val can
; be printed when the tag expands. A string containing @ is excluded: under
; (declare 'atstrings t) it is code, to be interpolated where it stands.
(def precomputable-tagopt (val)
  (and (literal val)
       (no (and (isa val 'string) (find #\@ val)))))

; (tag-options spec options): for the tag named spec and its list of (attr
; val) pairs, what prints each attribute: a string, if it could be printed
; now, else the code printing it. An unregistered attribute is dropped with
; a comment printed now, into whatever output the compilation has, and so
; is an attribute whose value form is nil.
(def tag-options (spec options)
  (when options
    (let (opt val) (car options)
      (let meth (if (is opt 'style) opstring (opmeth spec opt))
        (if (no meth)
            (do (pr "<!-- ignoring " opt " for " spec "-->")
                (tag-options spec (cdr options)))
            (no val)
            (tag-options spec (cdr options))
            (cons (if (precomputable-tagopt val)
                      (tostring (eval (meth opt val)))
                      (meth opt val))
                  (tag-options spec (cdr options))))))))

; The pieces of a start tag, strings and code, with adjacent strings joined
; so that a start tag whose attributes are all constant is one string.
(def %html-start-pieces (spec)
  (if (atom spec)
      (list (string "<" spec ">"))
      (%html-join-strings
        (join (list (string "<" (car spec)))
              (tag-options (car spec) (pair (cdr spec)))
              (list ">")))))

(def %html-join-strings (xs)
  (if (no xs) nil
      (and (isa (car xs) 'string) (cdr xs) (isa (cadr xs) 'string))
      (%html-join-strings (cons (+ (car xs) (cadr xs)) (cddr xs)))
      (cons (car xs) (%html-join-strings (cdr xs)))))

; The forms printing pieces: (pr "...") for each string, the code as is.
(def %html-piece-forms (pieces)
  (map [if (isa _ 'string) `(pr ,_) _] pieces))

; One form printing pieces.
(def %html-print-code (pieces)
  (let forms (%html-piece-forms pieces)
    (if (cdr forms) `(do ,@forms) (car forms))))

; (start-tag spec): the code printing the start tag of spec, a tag name or
; (name attr1 val1 ...).
(def start-tag (spec)
  (%html-print-code (%html-start-pieces spec)))

; (end-tag spec): the code printing the end tag of spec.
(def end-tag (spec)
  `(pr ,(string "</" (carif spec) ">")))

; (gentag name . attrs): print only the start tag.
(mac gentag args
  (start-tag args))

; (tag spec . body): print the start tag of spec, run body, print the end
; tag. An element with no body prints as one string when its attributes
; are constant.
(mac tag (spec . body)
  (if body
      `(do ,@(%html-piece-forms (%html-start-pieces spec))
           ,@body
           ,(end-tag spec))
      (%html-print-code
        (%html-join-strings
          (join (%html-start-pieces spec)
                (list (string "</" (carif spec) ">")))))))

; (tag-if test spec . body): body inside the tag if test is true, else
; body alone.
(mac tag-if (test spec . body)
  `(if ,test
       (tag ,spec ,@body)
       (do ,@body)))

; --- Layout --------------------------------------------------------------------

; (br (o n 1)): n <br>s, then a newline.
(def br ((o n 1))
  (repeat n (pr "<br>"))
  (prn))

; (br2): <br><br> and a newline.
(def br2 ()
  (prn "<br><br>"))

(mac center body    `(tag center ,@body))
(mac underline body `(tag u ,@body))
(mac tab body       `(tag (table border 0) ,@body))
(mac tr body        `(tag tr ,@body))

; The body of a cell macro: as it is if every form in it is a call, else
; one pr of all of it, so that (td "a") and (td x) print their value.
(def %html-cell-body (body)
  (if (all [and (acons _) (isnt (car _) 'quote)] body)
      body
      `((pr ,@body))))

(mac td body          `(tag td ,@(%html-cell-body body)))
(mac trtd body        `(tr (td ,@body)))
(mac tdr body         `(tag (td align 'right) ,@(%html-cell-body body)))
(mac tdcolor (col . body)
  `(tag (td bgcolor ,col) ,@(%html-cell-body body)))

; (row . exprs): a table row, each expression a td (with its body rule).
(mac row args
  `(tr ,@(map [list 'td _] args)))

; (prrow . exprs): a row printing each value in a cell, numbers right-
; aligned.
(mac prrow args
  (w/uniq g
    `(tr ,@(map (fn (a)
                  `(let ,g ,a
                     (if (number ,g) (tdr (pr ,g)) (td (pr ,g)))))
                args))))

; (prbold . exprs): the printed values in <b>.
(mac prbold body
  `(tag b (pr ,@body)))

; (para . args): <p>, then args printed.
(def para args
  (gentag p)
  (when args (apply pr args)))

; (menu name items (o sel)): a select named name with an option per item,
; the one that is sel selected.
(def menu (name items (o sel nil))
  (tag (select name name)
    (each i items
      (tag (option selected (is i sel))
        (pr i)))))

; (whitepage . body): a whole page, white, with the link color as linkblue.
(mac whitepage body
  `(tag html
     (tag (body bgcolor white alink linkblue)
       ,@body)))

; (errpage . args): a page with args printed on it.
(def errpage args
  (whitepage (apply prn args)))

; (blank-url): the transparent image the spacers stretch.
(def blank-url () "s.gif")

(def hspace (n)    (gentag img src (blank-url) height 1 width n))
(def vspace (n)    (gentag img src (blank-url) height n width 0))
(def vhspace (h w) (gentag img src (blank-url) height h width w))

; (new-hspace n): horizontal space by CSS padding rather than an image;
; constant when n is a literal number.
(mac new-hspace (n)
  (if (number n)
      `(pr ,(string "<span style=\"padding-left:" n "px\" />"))
      `(pr "<span style=\"padding-left:" ,n "px\" />")))

; (spacerow h): an empty row h pixels high.
(def spacerow (h)
  (pr "<tr style=\"height:" h "px\"></tr>"))

(mac zerotable body
  `(tag (table border 0 cellpadding 0 cellspacing 0) ,@body))

(mac sptab body
  `(tag (table style "border-spacing: 7px 0px;") ,@body))

; (widtable w . body): body in the one cell of a table of width w.
(mac widtable (w . body)
  `(tag (table width ,w) (tr (td ,@body))))

; (cellpr x): x, or a non-breaking space for nil so the cell keeps its
; height.
(def cellpr (x)
  (pr (or x "&nbsp;")))

; (spanrow n . body): a row of one cell spanning n columns.
(mac spanrow (n . body)
  `(tr (tag (td colspan ,n) ,@body)))

; (spanclass name . body): body in <span class="name">; name is a name,
; not evaluated.
(mac spanclass (name . body)
  `(tag (span class ',name) ,@body))

; (fontcolor c . body): body in <font color=c>, or body alone when c is
; nil.
(mac fontcolor (c . body)
  (w/uniq g
    `(let ,g ,c
       (if ,g
           (tag (font color ,g) ,@body)
           (do ,@body)))))

; (pagemessage text): text and a paragraph break, if there is a text.
(def pagemessage (text)
  (when text
    (prn text)
    (br2)))

(def nbsp () (pr "&nbsp;"))

; (cdata . body): the output of body inside <![CDATA[ ]]>.
(mac cdata body
  `(do (pr "<![CDATA[")
       ,@body
       (pr "]]>")))

; --- Forms ---------------------------------------------------------------------

; (but (o text "submit") (o name)): a submit button.
(def but ((o text "submit") (o name nil))
  (gentag input type 'submit name name value text))

; (submit (o val "submit")): a submit button.
(def submit ((o val "submit"))
  (gentag input type 'submit value val))

; (buts name . texts): a submit button per text, all named name, separated
; by spaces; a default button if there is no text.
(def buts (name . texts)
  (if (no texts)
      (but)
      (do (but (car texts) name)
          (each text (cdr texts)
            (pr " ")
            (but text name)))))

; (form action . body): a form posting to action.
(mac form (action . body)
  `(tag (form method "post" action ,action) ,@body))

; (textarea name rows cols . body): a textarea whose content is what body
; prints.
(mac textarea (name rows cols . body)
  `(tag (textarea name ,name rows ,rows cols ,cols) ,@body))

; (input name (o val "") (o size 10)): a text input.
(def input (name (o val "") (o size 10))
  (gentag input type 'text name name value val size size))

; (inputs name label len text ...): a table with a labelled field per four
; forms. name and label are names, not evaluated; len is the input's size,
; or a (rows cols) list for a textarea; text is the initial value. A field
; labelled password is a password input. When len is a literal the kind of
; field is decided now and its size printed as part of the constant tag;
; a literal list need not be quoted.
(mac inputs args
  `(tag (table border 0)
     ,@(map (fn ((name label len text))
              `(tr (td (pr ,(string label ":")))
                   ,(%html-input-field name label len text)))
            (tuples args 4))))

; The td of one field of inputs. The dimensions of a textarea, when len
; spells them, are known now; other literals are an input's size; anything
; else is looked at when the form runs.
(def %html-input-field (name label len text)
  (let dims (if (and (acons len) (number (car len))) len
                (caris len 'quote) (cadr len))
    (if (acons dims)
        (%html-input-area name (car dims) (cadr dims) text)
        (literal len)
        (%html-input-text name label len text)
        (w/uniq g
          `(let ,g ,len
             (if (acons ,g)
                 ,(%html-input-area name `(car ,g) `(cadr ,g) text)
                 ,(%html-input-text name label g text)))))))

(def %html-input-text (name label size text)
  `(td (gentag input type ',(if (is label 'password) 'password 'text)
                     name ',name size ,size value ,text)))

; The initial text of a textarea (a user's own, shown again) is escaped
; with esc-tags, where Arc 3.1 prints it as it is, so "</textarea>" in it
; cannot end the element; the browser decodes the entities, so the text
; comes back as it was typed.
(def %html-input-area (name rows cols text)
  (w/uniq g
    `(td (textarea ',name ,rows ,cols
           (let ,g ,text (if (isa ,g 'string) (pr (esc-tags ,g)) ,g (pr ,g)))))))

; (single-input label name chars btext (o pwd)): label, one input (a
; password input if pwd) chars wide, and a submit button.
(def single-input (label name chars btext (o pwd))
  (pr label)
  (gentag input type (if pwd 'password 'text) name name size chars)
  (sp)
  (submit btext))

; --- Escaping and links ------------------------------------------------------

; (eschtml str): str with < > " ' & as numeric entities, safe as text and
; inside a quoted attribute value. A string with none of them is returned
; itself rather than copied.
(def eschtml (str)
  (%html-esc 'eschtml str %html-entity))

; (esc-tags str): str with only < > & as entities, so that quotes stay
; readable in text that is not inside an attribute.
(def esc-tags (str)
  (%html-esc 'esc-tags str %html-tag-entity))

; (esc-attr x): x made safe as an attribute value, for opstring attributes
; such as href, which print their value unescaped. Not in Arc 3.1; added
; because eschtml takes only strings and turns nil into "", which would
; print an empty attribute where opstring omits one: esc-attr keeps nil as
; nil and escapes any other value (a symbol, a number) as eschtml escapes
; its printed form. (tag (a href (esc-attr url)) ...) is safe for any url
; as far as the markup goes; whether the url itself is harmless (say
; javascript:) is valid-url's question.
(def esc-attr (x)
  (if (no x) nil
      (isa x 'string) (eschtml x)
      (eschtml (string x))))

; (link text (o dest text) (o color)): text as a link to dest, in color
; if one is given.
(def link (text (o dest text) (o color))
  (tag (a href dest)
    (tag-if color (font color color)
      (pr text))))

; (underlink text (o dest text)): an underlined link.
(def underlink (text (o dest text))
  (tag (a href dest)
    (tag u (pr text))))

; (striptags s): s without its tags: everything from a < to the next >
; goes, both included, and so does a > outside a tag.
(def striptags (s)
  (let intag nil
    (tostring
      (each c s
        (if (is c #\<) (assign intag t)
            (is c #\>) (assign intag nil)
            (no intag) (writec c))))))

; (clean-url u): u without the characters " ' < > that would let it out
; of an attribute.
(def clean-url (u)
  (rem [in _ #\" #\' #\< #\>] u))

; (shortlink url): a link to url showing it without its first seven
; characters (its http://); nothing for nil or a shorter url.
(def shortlink (url)
  (unless (or (no url) (< (len url) 7))
    (link (cut url 7) url)))

; (parafy str): str with <p> after each newline that ends a blank line
; (one with only whitespace), so blank-line separated text shows as
; paragraphs.
(def parafy (str)
  (let ink nil
    (tostring
      (each c str
        (writec c)
        (unless (whitec c) (assign ink t))
        (when (is c #\newline)
          (unless ink (pr "<p>"))
          (assign ink nil))))))

; (valid-url url): t if url is longer than 10 characters, begins with
; http:// or https://, and has none of < > " '. Memoized: pages check the
; same urls over and over.
(defmemo valid-url (url)
  (and (isa url 'string)
       (len> url 10)
       (or (begins url "http://")
           (begins url "https://"))
       (no (find [in _ #\< #\> #\" #\'] url))))
