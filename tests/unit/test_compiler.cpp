// tests/unit/test_compiler.cpp — golden tests: the disassembly of each
// special form. A change in what the compiler emits shows up here; update a
// golden text only after reading the new bytecode and finding it right.
#include <catch2/catch.hpp>

#include "compiler/compile.h"
#include "support.h"
#include "vm/vm.h"

namespace {

// Compiles src (a fn form) as line 1 of a file named "test".
std::string disasm_of(const std::string& src) {
  auto& rt = support::runtime();
  return compiler::disassemble(rt.vm(), rt.eval_string(src, "test"));
}

}  // namespace

TEST_CASE("golden: quote", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn () 'a))ARC") ==
        R"GOLD(fn (test:1): 0 required, 0 optional; 0 locals, 0 upvalues
  0000     1  CONST    0	; a
  0001        RETURN
)GOLD");
}

TEST_CASE("golden: quasiquote", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (x) `(a ,x ,@x b)))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 1 locals, 0 upvalues
  0000     1  CONST    0	; #<procedure:%append>
  0001        CONST    1	; #<procedure:%list>
  0002        CONST    2	; a
  0003        LOADL    0
  0004        CALL     2
  0005        LOADL    0
  0006        CONST    1	; #<procedure:%list>
  0007        CONST    3	; b
  0008        CALL     1
  0009        TAILCALL 3
  0010        RETURN
)GOLD");
}

TEST_CASE("golden: if with no arguments", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn () (if)))ARC") ==
        R"GOLD(fn (test:1): 0 required, 0 optional; 0 locals, 0 upvalues
  0000     1  NIL
  0001        RETURN
)GOLD");
}

TEST_CASE("golden: if with one argument", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (a) (if a)))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 1 locals, 0 upvalues
  0000     1  LOADL    0
  0001        RETURN
)GOLD");
}

TEST_CASE("golden: if with an else", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (a b c) (if a b c)))ARC") ==
        R"GOLD(fn (test:1): 3 required, 0 optional; 3 locals, 0 upvalues
  0000     1  LOADL_JUMPF 0
  0001        JUMPF    2	; to 4
  0002        LOADL    1
  0003        RETURN
  0004        LOADL    2
  0005        RETURN
)GOLD");
}

TEST_CASE("golden: if with many branches", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (a b) (if a 1 b 2 3)))ARC") ==
        R"GOLD(fn (test:1): 2 required, 0 optional; 2 locals, 0 upvalues
  0000     1  LOADL_JUMPF 0
  0001        JUMPF    2	; to 4
  0002        FIXNUM   1
  0003        RETURN
  0004        LOADL_JUMPF 1
  0005        JUMPF    2	; to 8
  0006        FIXNUM   2
  0007        RETURN
  0008        FIXNUM   3
  0009        RETURN
)GOLD");
}

// An and in an if's test makes no value: each part's false jumps to the
// else branch (Emitter::emit_test).
TEST_CASE("golden: and as an if's test", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (a b c) (if (and a (< b 3) c) 1 2)))ARC") ==
        R"GOLD(fn (test:1): 3 required, 0 optional; 3 locals, 0 upvalues
  0000     1  LOADL_JUMPF 0
  0001        JUMPF    8	; to 10
  0002        LTIL     0	; <, local 1, 3
  0005        JUMPF    4	; to 10
  0006        LOADL_JUMPF 2
  0007        JUMPF    2	; to 10
  0008        FIXNUM   1
  0009        RETURN
  0010        FIXNUM   2
  0011        RETURN
)GOLD");
}

TEST_CASE("golden: if in a non-tail position", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (a) (car (if a 1 2))))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 1 locals, 0 upvalues
  0000     1  LOADL_JUMPF 0
  0001        JUMPF    2	; to 4
  0002        FIXNUM   1
  0003        JUMP     1	; to 5
  0004        FIXNUM   2
  0005        CAR      0	; car
  0006        RETURN
)GOLD");
}

// A float constant's CONST fused with the op after it (CONST_ADD,
// CONST_LE, CONST_MULN), a move into an assigned local (LOADL_POPX) and a difference
// of products (MULLL_SUB): the fused heads stand where their heads were,
// the rest as emitted.
TEST_CASE("golden: float constants and a move fused", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (a b) (let t2 (+ a 1.5) (if (<= (* t2 a) 4.0) (= b t2)) b)))ARC") ==
        R"GOLD(fn (test:1): 2 required, 0 optional; 3 locals, 0 upvalues
  0000     1  LOADL    0
  0001        CONST_ADD 0	; 1.5
  0002        ADD      1	; +
  0003        POPL     2
  0004        MULLL    2	; *, locals 2 0
  0007        CONST_LE 3	; 4.0
  0008        LE       4	; <=
  0009        JUMPF    2	; to 12
  0010        LOADL_POPX 2
  0011        POPX     1
  0012        LOADX    1
  0013        RETURN
)GOLD");
  // (- (* a b) (* c d)): MULLL_SUB, shown with its head's slots
  CHECK(disasm_of(R"ARC((fn (a b c d) (- (* a b) (* c d))))ARC") ==
        R"GOLD(fn (test:1): 4 required, 0 optional; 4 locals, 0 upvalues
  0000     1  MULLL_SUB 0	; *, locals 0 1
  0003        MULLL    0	; *, locals 2 3
  0006        SUB      1	; -
  0007        RETURN
)GOLD");
  // (* 2.0 a b): CONST_MULN, the loads and the MULN after it as emitted
  CHECK(disasm_of(R"ARC((fn (a b) (let p (* 2.0 a b) p)))ARC") ==
        R"GOLD(fn (test:1): 2 required, 0 optional; 3 locals, 0 upvalues
  0000     1  CONST_MULN 0	; 2.0
  0001        LOADL    0
  0002        LOADL    1
  0003        MULN     1	; *, 3 arguments
  0005        POPL     2
  0006        LOADL    2
  0007        RETURN
)GOLD");
}

TEST_CASE("golden: fn with a rest symbol", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn args args))ARC") ==
        R"GOLD(fn (test:1): 0 required, 0 optional, rest; 1 locals, 0 upvalues
  0000     1  LOADL    0
  0001        RETURN
)GOLD");
}

TEST_CASE("golden: fn with an optional seeing an earlier parameter", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (a (o b (+ a 1))) b))ARC") ==
        R"GOLD(fn (test:1): 1 required, 1 optional, lenient; 2 locals, 0 upvalues
  0000     1  OPTARG   5	; local 1, to 7
  0002        ADDIL    0	; +, local 0, 1
  0005        STOREL   1
  0006        POP
  0007        LOADL    1
  0008        RETURN
)GOLD");
}

TEST_CASE("golden: fn with a dotted rest", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (a . rest) rest))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional, rest; 2 locals, 0 upvalues
  0000     1  LOADL    1
  0001        RETURN
)GOLD");
}

TEST_CASE("golden: fn destructuring with an optional", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn ((a (o b 5))) b))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional, lenient; 4 locals, 0 upvalues
  0000     1  LOADL    0
  0001        POPL     1
  0002        CONST    0	; #<procedure:%dcar>
  0003        LOADL    1
  0004        CALL     1
  0005        POPL     2
  0006        CONST    1	; #<procedure:%dcdr>
  0007        LOADL    1
  0008        CALL     1
  0009        POPL     1
  0010        CONST    2	; #<procedure:%consp>
  0011        LOADL    1
  0012        CALL     1
  0013        JUMPF    4	; to 18
  0014        CONST    0	; #<procedure:%dcar>
  0015        LOADL    1
  0016        CALL     1
  0017        JUMP     1	; to 19
  0018        FIXNUM   5
  0019        POPL     3
  0020        CONST    1	; #<procedure:%dcdr>
  0021        LOADL    1
  0022        CALL     1
  0023        POPL     1
  0024        LOADL    3
  0025        RETURN
)GOLD");
}

// An assigned local no closure captures stays in its slot, read and
// written by the ops that follow a box once a continuation's capture made
// one (LOADX, POPX); one a closure captures lives in a box from the start.
TEST_CASE("golden: assign to a local", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (x) (assign x 2) x))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 1 locals, 0 upvalues
  0000     1  FIXNUM   2
  0001        POPX     0
  0002        LOADX    0
  0003        RETURN
)GOLD");
  CHECK(disasm_of(R"ARC((fn (x) (assign x 2) (fn () x)))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 1 locals, 0 upvalues
  0000     1  MKBOX    0
  0001        FIXNUM   2
  0002        STOREB   0
  0003        POP
  0004        CLOSURE  0	; <code fn> local0
  0006        RETURN

fn (test:1): 0 required, 0 optional; 0 locals, 1 upvalues
  0000     1  LOADUB   0
  0001        RETURN
)GOLD");
}

TEST_CASE("golden: assign to a global names the function", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn () (assign g (fn () 1))))ARC") ==
        R"GOLD(fn (test:1): 0 required, 0 optional; 0 locals, 0 upvalues
  0000     1  CLOSURE  0	; <code g>
  0001        STOREG   1	; g
  0002        RETURN

g (test:1): 0 required, 0 optional; 0 locals, 0 upvalues
  0000     1  FIXNUM   1
  0001        RETURN
)GOLD");
}

TEST_CASE("golden: closure capturing a variable", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (x) (fn () x)))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 1 locals, 0 upvalues
  0000     1  CLOSURE  0	; <code fn> local0
  0002        RETURN

fn (test:1): 0 required, 0 optional; 0 locals, 1 upvalues
  0000     1  LOADU    0
  0001        RETURN
)GOLD");
}

TEST_CASE("golden: closure over an assigned variable (boxed)", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (x) (fn (y) (assign x y))))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 1 locals, 0 upvalues
  0000     1  MKBOX    0
  0001        CLOSURE  0	; <code fn> local0
  0003        RETURN

fn (test:1): 1 required, 0 optional; 1 locals, 1 upvalues
  0000     1  LOADL    0
  0001        STOREUB  0
  0002        RETURN
)GOLD");
}

TEST_CASE("golden: nested closures pass captures through", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (x) (fn () (fn () x))))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 1 locals, 0 upvalues
  0000     1  CLOSURE  0	; <code fn> local0
  0002        RETURN

fn (test:1): 0 required, 0 optional; 0 locals, 1 upvalues
  0000     1  CLOSURE  0	; <code fn> up0
  0002        RETURN

fn (test:1): 0 required, 0 optional; 0 locals, 1 upvalues
  0000     1  LOADU    0
  0001        RETURN
)GOLD");
}

TEST_CASE("golden: tail call of a global", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (n) (f n)))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 1 locals, 0 upvalues
  0000     1  LOADG    0	; f
  0001        LOADL    0
  0002        TAILCALL 1
  0003        RETURN
)GOLD");
}

TEST_CASE("golden: non-tail calls", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (f a) (f a 1 (f))))ARC") ==
        R"GOLD(fn (test:1): 2 required, 0 optional; 2 locals, 0 upvalues
  0000     1  LOADL    0
  0001        LOADL    1
  0002        FIXNUM   1
  0003        LOADL    0
  0004        CALL     0
  0005        TAILCALL 3
  0006        RETURN
)GOLD");
}

TEST_CASE("golden: primitive fast paths", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (n) (cons (car n) (cdr n))))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 1 locals, 0 upvalues
  0000     1  CARL     0	; car, local 0
  0002        CDRL     1	; cdr, local 0
  0004        CONS     2	; cons
  0005        RETURN
)GOLD");
}

TEST_CASE("golden: local forms take a frame's unboxed locals only", "[compiler][golden]") {
  // (is a b) and (no b) on locals: ISL, NOL; (cons a c) with c boxed (set
  // by a closure): LOADB then CONS; (car a) inside the closure, a an
  // upvalue there: LOADU then CAR.
  CHECK(disasm_of(R"ARC((fn (a b c) (is a b) (no b) (cons a c) (fn () (car a) (= c 1))))ARC") ==
        R"GOLD(fn (test:1): 3 required, 0 optional; 3 locals, 0 upvalues
  0000     1  MKBOX    2
  0001        LOADL_ISL 0
  0002        ISL      0	; is, local 1
  0004        POP
  0005        NOL      1	; no, local 1
  0007        POP
  0008        LOADL    0
  0009        LOADB    2
  0010        CONS     2	; cons
  0011        POP
  0012        CLOSURE  3	; <code fn> local0 local2
  0015        RETURN

fn (test:1): 0 required, 0 optional; 0 locals, 2 upvalues
  0000     1  LOADU    0
  0001        CAR      0	; car
  0002        POP
  0003        FIXNUM   1
  0004        STOREUB  1
  0005        RETURN
)GOLD");
}

TEST_CASE("golden: let inlined into the frame", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (f) ((fn (a) a) (f))))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 2 locals, 0 upvalues
  0000     1  LOADL    0
  0001        CALL     0
  0002        POPL     1
  0003        LOADL    1
  0004        RETURN
)GOLD");
}

// A let binding never assigned, of a local never assigned or of a constant
// (a fixnum only when no comparison reads it: a loop's bound stays a local,
// for the loop's fused step), takes no slot of its own
// (Emitter::alias_init): the copies every = on a place made (withs of
// gensyms) are gone, so a store into a table is its operands and SREF, and
// (++ h!n)'s increment is an immediate. One of a call, or of a local
// assigned later, keeps its slot.
TEST_CASE("golden: a let of a local or a constant makes no copy", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (h) (++ h!n)))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 5 locals, 0 upvalues
  0000     1  ATOMIC   0	; atomic-invoke
  0001        JUMPF    10	; to 12
  0002        GETFL    1	; n, local 0
  0005        ADDI     2	; +, 1
  0007        SETFL    3	; sref, key n, local 0
  0011        RETURN
  0012        LOADG    0	; atomic-invoke
  0013        CLOSURE  4	; <code fn> local0
  0015        TAILCALL 1
  0016        RETURN

fn (test:1): 0 required, 0 optional; 4 locals, 1 upvalues
  0000     1  LOADU    0
  0001        POPL     0
  0002        GETFL    0	; n, local 0
  0005        ADDI     1	; +, 1
  0007        SETFL    2	; sref, key n, local 0
  0011        RETURN
)GOLD");
  CHECK(disasm_of(R"ARC((fn (x) ((fn (k) (if (< x k) (+ x k) k)) 3)))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 2 locals, 0 upvalues
  0000     1  FIXNUM   3
  0001        POPL     1
  0002        LOADL_LTL 0
  0003        LTL      0	; <, local 1
  0005        JUMPF    4	; to 10
  0006        ADDLL    1	; +, locals 0 1
  0009        RETURN
  0010        LOADL    1
  0011        RETURN
)GOLD");
  CHECK(disasm_of(R"ARC((fn (x) ((fn (a b) (cons a b)) x 'k)))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 3 locals, 0 upvalues
  0000     1  LOADL    0
  0001        CONST    0	; k
  0002        CONS     1	; cons
  0003        RETURN
)GOLD");
  CHECK(disasm_of(R"ARC((fn (f x) ((fn (a b) (assign x 1) (cons a b)) (f) x)))ARC") ==
        R"GOLD(fn (test:1): 2 required, 0 optional; 4 locals, 0 upvalues
  0000     1  LOADL    0
  0001        CALL     0
  0002        POPL     2
  0003        LOADX_POPL 1
  0004        POPL     3
  0005        FIXNUM   1
  0006        POPX     1
  0007        LOADL    2
  0008        CONSL    0	; cons, local 3
  0010        RETURN
)GOLD");
  CHECK(disasm_of(R"ARC((fn (h k) (= (h k) nil)))ARC") ==
        R"GOLD(fn (test:1): 2 required, 0 optional; 6 locals, 0 upvalues
  0000     1  ATOMIC   0	; atomic-invoke
  0001        JUMPF    5	; to 7
  0002        NIL_SREFLL
  0003        SREFLL   1	; sref, locals 0 1
  0006        RETURN
  0007        LOADG    0	; atomic-invoke
  0008        CLOSURE  2	; <code fn> local0 local1
  0011        TAILCALL 1
  0012        RETURN

fn (test:1): 0 required, 0 optional; 4 locals, 2 upvalues
  0000     1  LOADU    0
  0001        POPL     0
  0002        LOADU    1
  0003        POPL     1
  0004        NIL_SREFLL
  0005        SREFLL   0	; sref, locals 0 1
  0008        RETURN
)GOLD");
}

// An assigned local that only an atomic body's thunk captures is not boxed:
// the inline body reads its slot (the store's key is that slot, not a
// copy: Emitter::alias_copies), and the thunk, made only when
// the body cannot run inline, is given a box SHARE puts in the slot (the
// statement's if makes no value to pop).
TEST_CASE("golden: a local only an atomic thunk captures stays in its slot", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (h k) (= (h k) nil) (assign k 1)))ARC") ==
        R"GOLD(fn (test:1): 2 required, 0 optional; 6 locals, 0 upvalues
  0000     1  ATOMIC_JUMPT 0	; atomic-invoke
  0001        JUMPT    8	; to 10
  0002        LOADG    0	; atomic-invoke
  0003        SHARE    1
  0004        CLOSURE  1	; <code fn> local0 local1
  0007        CALL     1
  0008        POP
  0009        JUMP     5	; to 15
  0010        NIL_SREFLL
  0011        SREFLL   2	; sref, locals 0 1
  0014        POP
  0015        FIXNUM   1
  0016        STOREX   1
  0017        RETURN

fn (test:1): 0 required, 0 optional; 4 locals, 2 upvalues
  0000     1  LOADU    0
  0001        POPL     0
  0002        LOADUB   1
  0003        POPL     1
  0004        NIL_SREFLL
  0005        SREFLL   0	; sref, locals 0 1
  0008        RETURN
)GOLD");
}

// Fields: (= b!x v) of a local b ends in v; SETFL (SETF when b is not a
// plain local), b!y of a local is GETFL, of an expression GETF, each with
// the key's constant and a cache word the disassembly does not show (it
// changes as the code runs).
TEST_CASE("golden: field reads and writes", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (b v) (= b!x v) b!y))ARC") ==
        R"GOLD(fn (test:1): 2 required, 0 optional; 6 locals, 0 upvalues
  0000     1  ATOMIC_JUMPT 0	; atomic-invoke
  0001        JUMPT    7	; to 9
  0002        LOADG    0	; atomic-invoke
  0003        CLOSURE  1	; <code fn> local0 local1
  0006        CALL     1
  0007        POP
  0008        JUMP     6	; to 15
  0009        LOADL    1
  0010        SETFL    2	; sref, key x, local 0
  0014        POP
  0015        GETFL    4	; y, local 0
  0018        RETURN

fn (test:1): 0 required, 0 optional; 4 locals, 2 upvalues
  0000     1  LOADU    0
  0001        POPL     0
  0002        LOADU    1
  0003        SETFL    0	; sref, key x, local 0
  0007        RETURN
)GOLD");
}

TEST_CASE("golden: a field of an expression", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (f) (list ((f) 'y))))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 1 locals, 0 upvalues
  0000     1  LOADG    0	; list
  0001        LOADL    0
  0002        CALL     0
  0003        GETF     1	; y
  0005        TAILCALL 1
  0006        RETURN
)GOLD");
}

TEST_CASE("golden: string literal copied per evaluation", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn () "s"))ARC") ==
        R"GOLD(fn (test:1): 0 required, 0 optional; 0 locals, 0 upvalues
  0000     1  STRING   0	; "s"
  0001        RETURN
)GOLD");
}

TEST_CASE("golden: catch", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (f) (%catch (f) (fn (e) e))))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 1 locals, 0 upvalues
  0000     1  CATCH    4	; to 5
  0001        LOADL    0
  0002        CALL     0
  0003        UNCATCH
  0004        JUMP     4	; to 9
  0005        UNCATCH
  0006        CLOSURE  0	; <code fn>
  0007        SWAP
  0008        CALL     1
  0009        RETURN

fn (test:1): 1 required, 0 optional; 1 locals, 0 upvalues
  0000     1  LOADL    0
  0001        RETURN
)GOLD");
}

TEST_CASE("compile errors name the position", "[compiler]") {
  CHECK(support::error_of("(fn (a a) a)").find("duplicate parameter") != std::string::npos);
  CHECK(support::error_of("\n(fn (a a) a)").find("test:2") != std::string::npos);
  CHECK(support::error_of("(assign nil 1)").find("Can't rebind nil") != std::string::npos);
  CHECK(support::error_of("(assign t 1)").find("Can't rebind t") != std::string::npos);
  CHECK(support::error_of("(a..b)").find("Bad ssyntax") != std::string::npos);
  CHECK(support::error_of("(quote)").find("quote takes one argument") != std::string::npos);
}

TEST_CASE("macros expand at compile time, in the form after their definition", "[compiler]") {
  support::eval("(assign m1 (annotate 'mac (fn (x) (cons 'quote (cons x nil)))))");
  CHECK(support::eval("(m1 (a b))") == "(a b)");
  CHECK(support::eval("((fn (m1) (m1 5)) car)") == "5");  // lexicals don't shadow macros
  CHECK(support::eval("(macex1 '(m1 z))") == "(quote z)");
}

// A local function that only calls itself in tail position (afn, rfn and
// every iteration macro) is a loop in its caller's frame: no closure, no
// call per round; the self call stores the parameter, tests again and
// jumps back into the branch it continues in (JUMPT: the then branch),
// the step and the test one fused instruction (ADDIL_LTL).
TEST_CASE("golden: a self-calling afn is a loop", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (n) ((afn (i) (when (< i n) (self (+ i 1)))) 0)))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 2 locals, 0 upvalues
  0000     1  FIXNUM   0
  0001        POPL     1
  0002        LOADL_LTL 1
  0003        LTL      0	; <, local 0
  0005        JUMPF    9	; to 15
  0006        ADDIL_LTL 1	; +, local 1, 1
  0009        POPL     1
  0010        LOADL_LTL 1
  0011        LTL      0	; <, local 0
  0013        JUMPT    -8	; to 6
  0014        JUMP     0	; to 15
  0015        NIL
  0016        RETURN
)GOLD");
}

// A list loop's bottom: the self call's last store and the loop's test
// one instruction (POPL_JUMPT), the test alone another (LOADL_JUMPT: run
// where the instruction before it is not a store, or a jump lands on it).
TEST_CASE("golden: a list loop's bottom is one instruction", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (xs) ((afn (ys) (if ys (self (cdr ys)) 0)) xs)))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 2 locals, 0 upvalues
  0000     1  LOADL    0
  0001        POPL     1
  0002        LOADL_JUMPF 1
  0003        JUMPF    6	; to 10
  0004        CDRL     0	; cdr, local 1
  0006        POPL_JUMPT 1
  0007        LOADL_JUMPT 1
  0008        JUMPT    -5	; to 4
  0009        JUMP     0	; to 10
  0010        FIXNUM   0
  0011        RETURN
)GOLD");
}

// (cons x nil), a list's new last cell: NIL; CONS fused (NIL_CONS).
TEST_CASE("golden: a cell of one element", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (x) (cons (car x) nil)))ARC") ==
        R"GOLD(fn (test:1): 1 required, 0 optional; 1 locals, 0 upvalues
  0000     1  CARL     0	; car, local 0
  0002        NIL_CONS
  0003        CONS     1	; cons
  0004        RETURN
)GOLD");
}

// Not a loop when the function escapes, is called other than in tail
// position, or is captured by a closure: then it is a closure as written.
TEST_CASE("a self-calling function that escapes stays a closure", "[compiler]") {
  for (const char* src : {"(fn (n) ((afn (i) (if (is i 0) self (self (- i 1)))) n))",
                          "(fn (n) ((afn (i) (if (is i 0) 0 (+ 1 (self (- i 1))))) n))",
                          "(fn (n) ((afn (i) (if (is i 0) (fn () (self 1)) (self (- i 1)))) n))"}) {
    std::string d = disasm_of(src);
    CHECK(d.find("CLOSURE") != std::string::npos);
  }
}

// Arithmetic and tests of two locals read both slots in place (the slot
// forms, vm/opcodes.def): an assigned local's slot too, which holds a box
// once a continuation's capture made one; the POPL after MULLL is taken by
// MULLL itself, which stores its result there. <= and >= of a local and a
// small constant are one instruction (LEIL, GEIL), on an assigned local too.
TEST_CASE("golden: the slot forms", "[compiler][golden]") {
  CHECK(disasm_of(R"ARC((fn (a b) (let c (* a b) (assign a 2) (if (<= a c) (>= a 3)))))ARC") ==
        R"GOLD(fn (test:1): 2 required, 0 optional; 3 locals, 0 upvalues
  0000     1  MULLL    0	; *, locals 0 1
  0003        POPL     2
  0004        FIXNUM   2
  0005        POPX     0
  0006        LELL     1	; <=, locals 0 2
  0009        JUMPF    4	; to 14
  0010        GEIL     2	; >=, local 0, 3
  0013        RETURN
  0014        NIL
  0015        RETURN
)GOLD");
}
