// compiler/compile.cpp — see compile.h. The special forms each have one
// function below (build_* for the tree, emit_* for the bytecode), starting
// with a comment showing what they produce.
#include "compiler/compile.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "compiler/expand.h"
#include "vm/code.h"
#include "vm/error.h"
#include "vm/string.h"
#include "vm/symbol.h"

namespace compiler {

using namespace vm;

namespace {

struct Lambda;
struct Node;
struct PointInfo;

struct Binding {
  Value name;
  Lambda* owner;
  uint32_t slot;
  bool captured = false;
  // Captured by a closure other than an atomic body's thunk (see shared).
  bool plain_captured = false;
  bool assigned = false;
  bool internal = false;  // a compiler temporary, invisible to the program
  // Read as an operand of a comparison (<, >, <=, >=, is): a loop's bound
  // (Emitter::alias_init).
  bool compared = false;
  // The name of an escape-only point (Builder::build_point): no slot,
  // every use of it a jump.
  PointInfo* point = nullptr;
  // Set by the emitter (Emitter::alias_init): a binding never assigned,
  // whose first value is a constant, is that constant wherever it is read.
  Node* constant = nullptr;
  // Set by the emitter (Emitter::alias_copies): a let's copy of an assigned
  // local, every read of it in its scope made a read of that local.
  bool aliased = false;
  // An assigned variable that a closure captures lives in a box from its
  // binding on, shared with the closures.
  bool boxed() const { return assigned && plain_captured; }
  // One that no closure captures lives in its slot (LOADX, STOREX), until
  // a continuation is captured with the frame on the stack: the capture
  // boxes it then, for the frame and the copy to share (a re-entered
  // continuation must see the variable's current value, not the one it had
  // when the stack was copied; VM::box_shared_slots). So does one that
  // only twins capture (Lambda::twin_thunk: the thunks of atomic bodies,
  // Builder::build_atomic, and the fns of escape-only points,
  // build_point): a twin is made only when the body does not run inline
  // (other threads, a redefined atomic-invoke or ccc), and SHARE boxes the
  // slot in place then, just before the capture. A compiler temporary is never seen by a re-entered
  // continuation nor a thunk: a plain slot.
  bool shared() const { return assigned && !plain_captured && (!internal || captured); }
};

enum class NK {
  Const,
  Local,
  Global,
  SetLocal,
  InitLocal,
  SetGlobal,
  If,
  Fn,
  Call,
  Seq,
  Let,
  Catch,
  Point,
  Escape,
  Prim,
  OptArg,
  Loop,
  LoopJump
};

struct Node;

// A local function that only ever calls itself in tail position, run as a
// loop in its caller's frame (Builder::loop_form): its parameters are
// locals there, and a self call stores them and jumps back to the head.
struct LoopInfo {
  Value name;  // the function's name in the source (g in (rfn g ...))
  std::vector<Binding*> params;
  size_t head = 0;  // where the iteration starts (emitter)
  // When the body is (if test then else) with a test cheap to repeat, a
  // self call in a branch tests again at the bottom and jumps back into the
  // branch the test chooses (Emitter::emit_loop_jump): an iteration is one
  // jump, not a jump to the head and a test's there.
  Node* test_if = nullptr;
  size_t then_at = 0, else_at = 0;  // test_if's branches (emitter)
  int branch = 0;                   // the branch being emitted: 1 then, 2 else
  std::vector<size_t> to_else;      // jumps from the then branch, to patch
};

// (point name body...), which catch is, whose name the body only ever calls
// in its own frame, with at most one argument and outside any %catch of
// that frame: the body runs inline and each call of name is a jump to its
// end with the value (Builder::build_point).
struct PointInfo {
  bool escape_only = true;      // no use of the name but a call the builder made an Escape
  int catch_depth = 0;          // the %catch forms around the point (Builder::catch_depth_)
  int depth = 0;                // the operand depth at the body's start (emitter)
  std::vector<size_t> escapes;  // the escapes' jumps to the end, to patch (emitter)
};

struct Node {
  NK kind;
  uint32_t line = 0;
  Value value;                 // Const: the datum; Global/SetGlobal: the symbol;
                               // Call: a string literal's constant (build_string)
  Binding* b = nullptr;        // Local, SetLocal, InitLocal, OptArg
  Lambda* fn = nullptr;        // Fn
  Op prim = Op::NIL;           // Prim
  LoopInfo* loop = nullptr;    // Loop, LoopJump; If: the loop it is the test_if of
  PointInfo* point = nullptr;  // Point, Escape
  std::vector<Node*> kids;     // operands, in evaluation order
};

struct Lambda {
  Lambda* parent = nullptr;
  Value name;
  Value file;
  uint32_t line = 0;
  uint16_t nreq = 0, nopt = 0;
  bool rest = false, lenient = false;
  std::vector<Binding*> params;  // the first nreq+nopt+rest slots
  std::vector<Node*> prologue;   // optional defaults and destructuring, in order
  Node* body = nullptr;
  std::vector<Binding*> captures;
  uint32_t nlocals = 0;
  // The closure made only when an inline copy of its body does not run: an
  // atomic body's thunk (Builder::build_atomic), an escape-only point's fn
  // (build_point).
  bool twin_thunk = false;

  uint32_t capture_index(Binding* b) {
    auto it = std::find(captures.begin(), captures.end(), b);
    if (it != captures.end()) return uint32_t(it - captures.begin());
    captures.push_back(b);
    return uint32_t(captures.size() - 1);
  }
};

struct Scope {
  Scope* parent;
  Lambda* fn;
  std::vector<Binding*> vars;
};

class Builder {
 public:
  Builder(VM& vm, Value file) : vm_(vm), file_(file) {}

  // line: the form's, for its parts that carry no position of their own.
  Lambda* toplevel(Value form, uint32_t line) {
    Lambda* l = new_lambda(nullptr, line);
    Scope s{nullptr, l, {}};
    l->body = build(form, &s, line);
    return l;
  }

 private:
  // The tree lives in deques, which keep each element in place as they grow
  // and allocate in blocks (an allocation for each node showed in startup).
  template <class T>
  T* make() {
    if constexpr (std::is_same_v<T, Node>) return &nodes_.emplace_back();
    if constexpr (std::is_same_v<T, Binding>) return &bindings_.emplace_back();
    if constexpr (std::is_same_v<T, Lambda>) return &lambdas_.emplace_back();
    if constexpr (std::is_same_v<T, LoopInfo>) return &loop_infos_.emplace_back();
    if constexpr (std::is_same_v<T, PointInfo>) return &point_infos_.emplace_back();
  }

  Node* node(NK k, uint32_t line) {
    Node* n = make<Node>();
    n->kind = k;
    n->line = line;
    return n;
  }

  Lambda* new_lambda(Lambda* parent, uint32_t line) {
    Lambda* l = make<Lambda>();
    l->parent = parent;
    l->file = file_;
    l->line = line;
    return l;
  }

  Binding* bind(Scope* s, Value name) {
    Binding* b = make<Binding>();
    b->name = name;
    b->owner = s->fn;
    b->slot = s->fn->nlocals++;
    s->vars.push_back(b);
    return b;
  }

  Binding* lookup(Scope* s, Value name) {
    for (; s; s = s->parent)
      for (auto it = s->vars.rbegin(); it != s->vars.rend(); ++it)
        if ((*it)->name == name) return *it;
    return nullptr;
  }

  // A reference from lambda `from` to b: every lambda between captures it.
  // A capture of the frame's own variable by a twin (Lambda::twin_thunk)
  // leaves it unboxed (Binding::shared).
  void note_capture(Lambda* from, Binding* b) {
    if (b->owner == from) return;
    b->captured = true;
    if (!(from->twin_thunk && from->parent == b->owner)) b->plain_captured = true;
    for (Lambda* l = from; l && l != b->owner; l = l->parent) l->capture_index(b);
  }

  uint32_t line_of(Value form, uint32_t dflt) {
    uint64_t p = pos_of(form);
    return p ? pos_line(p) : dflt;
  }

  [[noreturn]] void fail(const std::string& msg, Value form, uint32_t line) {
    std::string at = file_.is_nil() ? "" : string_utf8(file_) + ":" + std::to_string(line) + ": ";
    throw_error(vm_, at + msg, {form});
  }

  // This walk, and the others that recurse on a form (occurs,
  // only_tail_calls, destructure, the emitter's), check the machine stack
  // at each level: the expander kept the form within its depth limit, but a
  // thread's or fiber's stack can end sooner, and an Arc error it must be.
  Node* build(Value x, Scope* s, uint32_t line) {
    vm_.check_machine_stack();
    switch (TYPE(x)) {
      case Kind::Symbol: return build_ref(x, s, line);
      case Kind::True:  // t may be a parameter name (docs/LANGUAGE.md 1.1)
        return lookup(s, x) ? build_ref(x, s, line) : constant(x, line);
      case Kind::Cons: return build_list(x, s, line_of(x, line));
      case Kind::String: return build_string(x, line);
      default: return constant(x, line);
    }
  }

  Node* constant(Value v, uint32_t line) {
    Node* n = node(NK::Const, line);
    n->value = v;
    return n;
  }

  // "abc" => (%strcopy "abc"): each evaluation gives a fresh string, which
  // shares the constant's characters until written (vm/string.cpp), as the
  // constant keeps them in a Blob (string_shareable). The tree keeps it a
  // call, so every pass treats it as one (it allocates: never a constant a
  // local may be replaced by); emit_call emits it as one STRING.
  Node* build_string(Value s, uint32_t line) {
    Node* n = node(NK::Call, line);
    n->value = string_shareable(vm_, s);
    n->kids = {constant(global_value(intern(vm_, "%strcopy")), line), constant(n->value, line)};
    return n;
  }

  Node* build_ref(Value sym, Scope* s, uint32_t line) {
    if (Binding* b = lookup(s, sym)) {
      if (b->point) b->point->escape_only = false;
      note_capture(s->fn, b);
      Node* n = node(NK::Local, line);
      n->b = b;
      return n;
    }
    Node* n = node(NK::Global, line);
    n->value = sym;
    return n;
  }

  Node* build_list(Value x, Scope* s, uint32_t line) {
    Value head = car(x);
    if (head == vm_.S.quote) return constant(car(cdr(x)), line);
    if (head == vm_.S.if_) return build_if(cdr(x), s, line);
    if (head == vm_.S.fn) return build_fn(x, s, line, complex_params(x) ? NIL : fn_name_);
    if (head == vm_.S.assign) return build_assign(cdr(x), s, line);
    if (head == intern(vm_, "%catch")) return build_catch(x, s, line);
    return build_call(x, s, line);
  }

  // (if) => nil; (if a) => a; (if c1 e1 c2 e2 ... else)
  Node* build_if(Value args, Scope* s, uint32_t line) {
    if (args.is_nil()) return constant(NIL, line);
    if (cdr(args).is_nil()) return build(car(args), s, line);
    Node* n = node(NK::If, line);
    n->kids.push_back(build(car(args), s, line));
    n->kids.push_back(build(car(cdr(args)), s, line));
    Value rest = cdr(cdr(args));
    n->kids.push_back(rest.is_nil() ? constant(NIL, line) : build_if(rest, s, line));
    return n;
  }

  // (assign v1 e1 v2 e2 ...): lexical if bound, else global.
  Node* build_assign(Value args, Scope* s, uint32_t line) {
    Node* seq = node(NK::Seq, line);
    for (Value p = args; is_cons(p); p = cdr(cdr(p))) {
      Value target = car(p);
      Value expr = is_cons(cdr(p)) ? car(cdr(p)) : NIL;
      // A fn assigned directly is named after its target even with a
      // complex parameter list, which Arc 3.1 names zz, after a temporary
      // of its compiler (docs/LANGUAGE.md 1.8).
      Node* v = build_named(expr, s, line, target);
      if (is_fn_form(expr)) v->fn->name = target;
      Node* n;
      if (Binding* b = lookup(s, target)) {
        if (b->point) b->point->escape_only = false;
        b->assigned = true;
        note_capture(s->fn, b);
        n = node(NK::SetLocal, line);
        n->b = b;
      } else {
        n = node(NK::SetGlobal, line);
        n->value = target;
      }
      n->kids.push_back(v);
      seq->kids.push_back(n);
    }
    if (seq->kids.empty()) return constant(NIL, line);
    return seq->kids.size() == 1 ? seq->kids[0] : seq;
  }

  bool is_fn_form(Value x) const { return is_cons(x) && car(x) == vm_.S.fn; }

  // Functions are named as Arc 3.1 names them (docs/LANGUAGE.md 1.8): after
  // the nearest enclosing binding, wherever the fn sits inside its value,
  // in a nested fn too. An assign binds its target over its value, a call
  // of a literal fn each parameter over its argument (ac.scm's ac-dbname!,
  // ac-set1 and ac-args). build_named builds x under name, or under the
  // current name when name is not a symbol (a destructuring pattern or an
  // optional).
  Node* build_named(Value x, Scope* s, uint32_t line, Value name) {
    Value outer = fn_name_;
    if (TYPE(name) == Kind::Symbol) fn_name_ = name;
    Node* n = build(x, s, line);
    fn_name_ = outer;
    return n;
  }

  // Whether fn form x has optionals or destructuring (a rest parameter is
  // simple): Arc 3.1 compiles such a fn apart and never names it.
  static bool complex_params(Value x) {
    Value p = is_cons(cdr(x)) ? car(cdr(x)) : NIL;
    for (; is_cons(p); p = cdr(p))
      if (TYPE(car(p)) != Kind::Symbol && car(p) != T) return true;
    return false;
  }

  // (%catch body handler): body with a handler pushed; an error calls
  // (handler exception).
  Node* build_catch(Value x, Scope* s, uint32_t line) {
    Value args = cdr(x);
    if (!is_cons(args) || !is_cons(cdr(args))) fail("%catch: bad form", x, line);
    Node* n = node(NK::Catch, line);
    ++catch_depth_;  // (an error ends the whole Builder, as for loops_)
    n->kids = {build(car(args), s, line), build(car(cdr(args)), s, line)};
    --catch_depth_;
    return n;
  }

  Node* build_call(Value x, Scope* s, uint32_t line) {
    Value head = car(x);
    int nargs = 0;
    for (Value p = cdr(x); is_cons(p); p = cdr(p)) ++nargs;
    // ((fn (a b) body) x y) binds a and b in this frame: let, do, with...
    if (is_fn_form(head) && simple_params(car(cdr(head)), nargs)) return build_let(x, s, line);
    if (Value g, fnform; loop_form(x, nargs, &g, &fnform)) return build_loop(x, g, fnform, s, line);
    if (TYPE(head) == Kind::Symbol) {
      Binding* b = lookup(s, head);
      if (b && b->point && b->owner == s->fn && nargs <= 1 &&
          catch_depth_ == b->point->catch_depth) {
        Node* n = node(NK::Escape, line);  // (name v): a jump to the point's end with v
        n->point = b->point;
        if (nargs == 1) n->kids.push_back(build(car(cdr(x)), s, line));
        return n;
      }
    }
    if (TYPE(head) == Kind::Symbol && !lookup(s, head)) {
      if (Node* n = build_point(x, head, nargs, s, line)) return n;
      for (auto it = loops_.rbegin(); it != loops_.rend(); ++it)
        if ((*it)->name == head) return build_loop_jump(x, *it, s, line);
      if (Node* n = build_atomic(x, head, nargs, s, line)) return n;
      // The primitives with fast-path opcodes (vm/opcodes.def, PRIM): a
      // Base row of this global and argument count, or a Count row (ADDN)
      // for more than two. Only a symbol the VM flagged as naming one
      // (kSymPrimitiveOp) is looked for, by its name taken once.
      std::string name;
      if (head.is_ref() && (head.as<Symbol>()->h.flags & kSymPrimitiveOp)) name = symbol_name(head);
      for (int i = 0; !name.empty() && i < kOpCount; ++i) {
        const OpInfo& p = kOps[i];
        bool fits = (p.form == PrimForm::Base && p.arity == nargs) ||
                    (p.form == PrimForm::Count && nargs > 2);
        if (fits && name == p.global) {
          Node* n = node(NK::Prim, line);
          n->prim = Op(i);
          n->value = head;
          for (Value q = cdr(x); is_cons(q); q = cdr(q)) n->kids.push_back(build(car(q), s, line));
          if (is_comparison(n->prim))
            for (Node* k : n->kids)
              if (k->kind == NK::Local) k->b->compared = true;
          return n;
        }
      }
    }
    Node* n = node(NK::Call, line);
    n->kids.push_back(build(head, s, line));
    Value names = is_fn_form(head) && is_cons(cdr(head)) ? car(cdr(head)) : NIL;
    for (Value p = cdr(x); is_cons(p); p = cdr(p)) {
      n->kids.push_back(build_named(car(p), s, line, is_cons(names) ? car(names) : NIL));
      if (is_cons(names)) names = cdr(names);
    }
    return n;
  }

  // A comparison, in any form: < > <= >= is.
  static bool is_comparison(Op op) {
    Op b = kOps[int(op)].base;
    return b == Op::LT || b == Op::GT || b == Op::LE || b == Op::GE || b == Op::IS;
  }

  // (atomic-invoke (fn () body...)), what atomic, and so = and ++ on
  // places, expand to: the body is built twice, once inline in this frame
  // (run while the builtin would just call the thunk) and once as the thunk
  // of the call made otherwise, as (if <ATOMIC> body call), the test the
  // primitive of vm/opcodes.def's ATOMIC row, taking no operands. A
  // nested one in the inline copy is built as the call alone, so nesting
  // costs a copy per level, not a doubling.
  Node* build_atomic(Value x, Value head, int nargs, Scope* s, uint32_t line) {
    static const CachedSymbol atomic_invoke("atomic-invoke");
    if (head != atomic_invoke.get(vm_) || nargs != 1 || inline_atomic_ > 0) return nullptr;
    Value thunk = car(cdr(x));
    if (!is_fn_form(thunk) || !is_cons(cdr(thunk)) || !car(cdr(thunk)).is_nil()) return nullptr;
    Node* test = node(NK::Prim, line);
    test->prim = Op::ATOMIC;
    test->value = head;
    ++inline_atomic_;  // (an error ends the whole Builder, as for loops_)
    Node* body = build_body(cdr(cdr(thunk)), s, line);
    --inline_atomic_;
    Node* call = node(NK::Call, line);
    call->kids.push_back(build(head, s, line));
    twin_thunk_ = thunk;
    call->kids.push_back(build(thunk, s, line));
    Node* n = node(NK::If, line);
    n->kids = {test, body, call};
    return n;
  }

  // (ccc (fn (k) ((fn (name) body...) (fn ((o v)) (k v))))), what (point
  // name body...) and so (catch body...) expand to, when body uses name
  // only as the head of calls in this frame with at most one argument (an
  // early return from a loop): the body is built inline, each such call an
  // Escape (a jump to the body's end with its value), with no
  // continuation captured, no closure made and no local boxed for it. As
  // for atomic, the test the primitive of vm/opcodes.def's POINT row makes
  // chooses between the inline body and the call as written (a twin, run
  // when ccc is redefined), whose fn captures without boxing
  // (Lambda::twin_thunk). Any other use of name (a value, a call from a
  // closure, from inside a %catch, with two arguments) and the form is
  // built as the call alone. A point inside another's inline body in the
  // same frame is inline with no test and no twin of its own: the outer
  // test chose for both (a twin of the inner one would call the outer name,
  // which has no value, from a closure; so a ccc redefined while an outer
  // body runs is not called by the points nested in it in that frame). Not
  // more than kMaxPointsTried tried inside each other, since each that
  // fails is built twice.
  static constexpr int kMaxPointsTried = 4;
  Node* build_point(Value x, Value head, int nargs, Scope* s, uint32_t line) {
    static const CachedSymbol ccc("ccc");
    static const CachedSymbol o("o");
    if (head != ccc.get(vm_) || nargs != 1 || no_points_ || points_tried_.size() >= kMaxPointsTried)
      return nullptr;
    Value f = car(cdr(x));  // (fn (k) ((fn (name) body...) esc))
    if (!is_fn_form(f) || !is_cons(cdr(f)) || !is_cons(car(cdr(f)))) return nullptr;
    Value k = car(car(cdr(f)));
    Value fbody = cdr(cdr(f));
    if (TYPE(k) != Kind::Symbol || !cdr(car(cdr(f))).is_nil() || !is_cons(fbody) ||
        !cdr(fbody).is_nil())
      return nullptr;
    Value inner = car(fbody);
    if (!is_cons(inner) || !is_fn_form(car(inner)) || !is_cons(cdr(inner)) ||
        !cdr(cdr(inner)).is_nil() || !is_cons(cdr(car(inner))))
      return nullptr;
    Value np = car(cdr(car(inner))), body = cdr(cdr(car(inner)));
    if (!is_cons(np) || !cdr(np).is_nil() || TYPE(car(np)) != Kind::Symbol) return nullptr;
    Value name = car(np);
    Value esc = car(cdr(inner));  // (fn ((o v)) (k v))
    if (!is_fn_form(esc) || !is_cons(cdr(esc)) || !is_cons(cdr(cdr(esc)))) return nullptr;
    Value ep = car(cdr(esc)), ebody = cdr(cdr(esc));
    if (!is_cons(ep) || !cdr(ep).is_nil() || !is_cons(car(ep))) return nullptr;
    Value opt = car(ep);  // (o v), which the expander makes (o v nil)
    if (car(opt) != o.get(vm_) || !is_cons(cdr(opt))) return nullptr;
    if (Value d = cdr(cdr(opt)); !d.is_nil() && !(is_cons(d) && car(d).is_nil() && cdr(d).is_nil()))
      return nullptr;
    Value v = car(cdr(opt));
    Value call = car(ebody);  // (k v)
    if (TYPE(v) != Kind::Symbol || !cdr(ebody).is_nil() || !is_cons(call) || car(call) != k ||
        !is_cons(cdr(call)) || car(cdr(call)) != v || !cdr(cdr(call)).is_nil() || name == k ||
        occurs(body, k))
      return nullptr;
    PointInfo* p = make<PointInfo>();
    p->catch_depth = catch_depth_;
    Binding* nb = make<Binding>();
    nb->name = name;
    nb->owner = s->fn;
    nb->point = p;
    Scope scope{s, s->fn, {nb}};
    bool nested = !points_tried_.empty() && points_tried_.back() == s->fn;
    points_tried_.push_back(s->fn);  // (an error ends the whole Builder, as for loops_)
    Node* inline_body = build_body(body, &scope, line);
    points_tried_.pop_back();
    if (!p->escape_only) return nullptr;
    Node* pn = node(NK::Point, line);
    pn->point = p;
    pn->kids.push_back(inline_body);
    if (nested) return pn;
    Node* test = node(NK::Prim, line);
    test->prim = Op::POINT;
    test->value = head;
    bool outer = no_points_;
    no_points_ = true;
    Node* twin = node(NK::Call, line);
    twin->kids.push_back(build(head, s, line));
    twin_thunk_ = f;
    twin->kids.push_back(build(f, s, line));
    no_points_ = outer;
    Node* n = node(NK::If, line);
    n->kids = {test, pn, twin};
    return n;
  }

  static bool simple_params(Value params, int nargs) {
    int n = 0;
    for (Value p = params; is_cons(p); p = cdr(p), ++n)
      if (TYPE(car(p)) != Kind::Symbol) return false;
    Value tail = params;
    while (is_cons(tail)) tail = cdr(tail);
    return tail.is_nil() && n == nargs && !has_duplicates(params);
  }

  static bool has_duplicates(Value params) {
    for (Value p = params; is_cons(p); p = cdr(p))
      for (Value q = cdr(p); is_cons(q); q = cdr(q))
        if (car(p) == car(q)) return true;
    return false;
  }

  // ((fn (a b) body...) x y) => x y evaluated in the outer scope, stored in
  // fresh slots of this frame, then body.
  Node* build_let(Value x, Scope* s, uint32_t line) {
    Value fnform = car(x);
    Node* n = node(NK::Let, line);
    std::vector<Node*> inits;
    Value names = car(cdr(fnform));
    for (Value p = cdr(x); is_cons(p); p = cdr(p), names = cdr(names))
      inits.push_back(build_named(car(p), s, line, car(names)));
    Scope inner{s, s->fn, {}};
    size_t i = 0;
    for (Value p = car(cdr(fnform)); is_cons(p); p = cdr(p), ++i) {
      Node* init = node(NK::InitLocal, line);
      init->b = bind(&inner, car(p));
      init->kids.push_back(inits[i]);
      n->kids.push_back(init);
    }
    n->kids.push_back(build_body(cdr(cdr(fnform)), &inner, line));
    return n;
  }

  // ((rfn g (params) body...) args...), which every iteration macro makes
  // (for, while, each, afn loops...), reaches the compiler expanded as
  //   (((fn (g) (assign g (fn (params) body...))) nil) args...)
  // When params are plain names and g appears in body only as the head of
  // calls in tail position with as many arguments (no other reference, no
  // closure capturing it), g's calls are jumps: the function runs as a loop
  // in this frame, with no closure made and no call per iteration. Each
  // round gets fresh boxes for boxed parameters, as a call would.
  bool loop_form(Value x, int nargs, Value* g, Value* fnform) {
    Value head = car(x);
    if (!is_cons(head) || !is_fn_form(car(head))) return false;
    Value letfn = car(head), letargs = cdr(head);
    if (!is_cons(letargs) || !car(letargs).is_nil() || !cdr(letargs).is_nil()) return false;
    Value letparams = car(cdr(letfn)), letbody = cdr(cdr(letfn));
    if (!is_cons(letparams) || !cdr(letparams).is_nil() || TYPE(car(letparams)) != Kind::Symbol)
      return false;
    Value name = car(letparams);
    if (!is_cons(letbody) || !cdr(letbody).is_nil()) return false;
    Value as = car(letbody);  // (assign g (fn params body...))
    if (!is_cons(as) || car(as) != vm_.S.assign || !is_cons(cdr(as)) || car(cdr(as)) != name ||
        !is_cons(cdr(cdr(as))) || !cdr(cdr(cdr(as))).is_nil())
      return false;
    Value fn = car(cdr(cdr(as)));
    if (!is_fn_form(fn) || !is_cons(cdr(fn))) return false;
    Value params = car(cdr(fn));
    if (!simple_params(params, nargs) || occurs(params, name)) return false;
    if (!only_tail_calls_body(cdr(cdr(fn)), name, nargs, true)) return false;
    *g = name;
    *fnform = fn;
    return true;
  }

  static bool member(Value list, Value x) {
    for (Value p = list; is_cons(p); p = cdr(p))
      if (car(p) == x) return true;
    return false;
  }

  // Whether symbol g occurs in x outside quoted data.
  bool occurs(Value x, Value g) const {
    if (x == g) return true;
    if (!is_cons(x) || car(x) == vm_.S.quote) return false;
    vm_.check_machine_stack();
    for (Value p = x;; p = cdr(p)) {
      if (!is_cons(p)) return p == g;
      if (occurs(car(p), g)) return true;
    }
  }

  bool only_tail_calls_body(Value forms, Value g, int nargs, bool tail) const {
    for (Value p = forms; is_cons(p); p = cdr(p))
      if (!only_tail_calls(car(p), g, nargs, tail && cdr(p).is_nil())) return false;
    return true;
  }

  // Whether every use of g in x (an expanded form) is a call with nargs
  // arguments in tail position (tail: x is in tail position).
  bool only_tail_calls(Value x, Value g, int nargs, bool tail) const {
    if (!is_cons(x)) return x != g;
    vm_.check_machine_stack();
    Value head = car(x), args = cdr(x);
    if (head == vm_.S.quote) return true;
    if (head == vm_.S.if_) {
      for (Value p = args; is_cons(p);) {
        if (cdr(p).is_nil()) return only_tail_calls(car(p), g, nargs, tail);  // the else
        if (!only_tail_calls(car(p), g, nargs, false)) return false;          // a test
        if (!only_tail_calls(car(cdr(p)), g, nargs, tail)) return false;
        p = cdr(cdr(p));
      }
      return true;
    }
    if (head == vm_.S.fn) {  // a closure: g must not be in it, unless a parameter hides it
      Value params = is_cons(args) ? car(args) : NIL;
      if (simple_params_list(params) && member(params, g)) return true;
      return !occurs(args, g);
    }
    if (head == vm_.S.assign) {
      for (Value p = args; is_cons(p); p = is_cons(cdr(p)) ? cdr(cdr(p)) : NIL) {
        if (car(p) == g) return false;
        if (is_cons(cdr(p)) && !only_tail_calls(car(cdr(p)), g, nargs, false)) return false;
      }
      return true;
    }
    int n = 0;
    for (Value p = args; is_cons(p); p = cdr(p)) {
      ++n;
      if (!only_tail_calls(car(p), g, nargs, false)) return false;
    }
    if (head == g) return tail && n == nargs;
    if (is_fn_form(head) && is_cons(cdr(head)) && simple_params(car(cdr(head)), n)) {
      // a let: its body is where the call is
      if (member(car(cdr(head)), g)) return true;
      return only_tail_calls_body(cdr(cdr(head)), g, nargs, tail);
    }
    return only_tail_calls(head, g, nargs, false);
  }

  static bool simple_params_list(Value params) {
    Value p = params;
    for (; is_cons(p); p = cdr(p))
      if (TYPE(car(p)) != Kind::Symbol) return false;
    return p.is_nil();
  }

  // The loop of loop_form: args evaluated here, then the parameters bound in
  // this frame, then the body, in which g's calls are LoopJumps.
  Node* build_loop(Value x, Value g, Value fnform, Scope* s, uint32_t line) {
    Node* n = node(NK::Loop, line);
    n->loop = make<LoopInfo>();
    n->loop->name = g;
    for (Value p = cdr(x); is_cons(p); p = cdr(p)) n->kids.push_back(build(car(p), s, line));
    Scope inner{s, s->fn, {}};
    for (Value p = car(cdr(fnform)); is_cons(p); p = cdr(p))
      n->loop->params.push_back(bind(&inner, car(p)));
    loops_.push_back(n->loop);
    Value outer = fn_name_;  // the body is inside (assign g (fn ...))
    fn_name_ = g;
    n->kids.push_back(build_body(cdr(cdr(fnform)), &inner, line_of(fnform, line)));
    fn_name_ = outer;
    loops_.pop_back();
    return n;
  }

  Node* build_loop_jump(Value x, LoopInfo* loop, Scope* s, uint32_t line) {
    Node* n = node(NK::LoopJump, line);
    n->loop = loop;
    for (Value p = cdr(x); is_cons(p); p = cdr(p)) n->kids.push_back(build(car(p), s, line));
    return n;
  }

  Node* build_body(Value body, Scope* s, uint32_t line) {
    if (body.is_nil()) return constant(NIL, line);
    if (cdr(body).is_nil()) return build(car(body), s, line);
    Node* seq = node(NK::Seq, line);
    for (Value p = body; is_cons(p); p = cdr(p)) seq->kids.push_back(build(car(p), s, line));
    return seq;
  }

  // (fn params body...) => a Lambda; params per docs/LANGUAGE.md 3.5.
  Node* build_fn(Value x, Scope* s, uint32_t line, Value name) {
    Lambda* l = new_lambda(s->fn, line);
    l->name = name;
    l->twin_thunk = x == twin_thunk_;
    twin_thunk_ = NIL;
    Scope inner{s, l, {}};
    build_params(car(cdr(x)), &inner, l, x, line);
    l->body = build_body(cdr(cdr(x)), &inner, line);
    Node* n = node(NK::Fn, line);
    n->fn = l;
    return n;
  }

  // nil may be a parameter, any number of times, and binds nothing
  // (docs/LANGUAGE.md 3.5): bind_param gives it a slot no name reaches.
  void check_name(Value v, Value form, uint32_t line, std::vector<Value>& seen) {
    if (v.is_nil()) return;
    if (TYPE(v) != Kind::Symbol && v != T) fail("fn: bad parameter", v, line);
    if (std::find(seen.begin(), seen.end(), v) != seen.end())
      fail("fn: duplicate parameter name", v, line);
    (void)form;
    seen.push_back(v);
  }

  Binding* bind_param(Scope* s, Value name) {
    if (!name.is_nil()) return bind(s, name);
    Binding* b = bind(s, gensym(vm_, "%nil"));
    b->internal = true;
    return b;
  }

  void build_params(Value params, Scope* s, Lambda* l, Value form, uint32_t line) {
    std::vector<Value> seen;
    if (params.is_nil()) return;
    if (TYPE(params) == Kind::Symbol) {  // (fn args ...)
      check_name(params, form, line, seen);
      l->rest = true;
      l->params.push_back(bind(s, params));
      return;
    }
    if (!is_cons(params)) fail("fn: bad parameter list", params, line);
    // Pass 1: the positional slots. Pass 2 (prologue) fills patterns and
    // defaults left to right, each seeing the ones before.
    struct Pending {
      Binding* slot;
      Value spec;  // a pattern, or (o var default), or nil for a plain name
    };
    std::vector<Pending> pend;
    Value p = params;
    for (; is_cons(p); p = cdr(p)) {
      Value el = car(p);
      if (is_cons(el) && car(el) == vm_.S.o) {
        Value var = is_cons(cdr(el)) ? car(cdr(el)) : NIL;
        check_name(var, form, line, seen);
        l->lenient = true;
        l->nopt++;
        Binding* b = bind_param(s, var);
        l->params.push_back(b);
        pend.push_back({b, el});
      } else if (is_cons(el)) {
        l->lenient = true;
        if (l->nopt) l->nopt++;
        else l->nreq++;
        Binding* b = bind(s, gensym(vm_, "%arg"));
        b->internal = true;
        l->params.push_back(b);
        pend.push_back({b, el});
      } else {
        check_name(el, form, line, seen);
        if (l->nopt) {  // a plain name after an optional: optional, default nil
          l->nopt++;
          Binding* b = bind_param(s, el);
          l->params.push_back(b);
          pend.push_back({b, list(vm_, {vm_.S.o, el})});
        } else {
          l->nreq++;
          l->params.push_back(bind_param(s, el));
          pend.push_back({l->params.back(), NIL});
        }
      }
    }
    Binding* rest = nullptr;
    if (!p.is_nil()) {
      check_name(p, form, line, seen);
      l->rest = true;
      rest = bind(s, p);
      l->params.push_back(rest);
    }
    for (const Pending& pd : pend) {
      if (pd.spec.is_nil()) continue;
      if (car(pd.spec) == vm_.S.o) {
        Node* n = node(NK::OptArg, line);
        n->b = pd.slot;
        Value d = is_cons(cdr(cdr(pd.spec))) ? car(cdr(cdr(pd.spec))) : NIL;
        n->kids.push_back(build(d, s, line));
        l->prologue.push_back(n);
      } else {
        destructure(pd.spec, pd.slot, s, l, form, line, seen);
      }
    }
  }

  Node* call_internal(const char* name, Node* arg, uint32_t line) {
    Node* n = node(NK::Call, line);
    n->kids = {constant(global_value(intern(vm_, name)), line), arg};
    return n;
  }

  Node* local_ref(Binding* b, Lambda* l, uint32_t line) {
    note_capture(l, b);
    Node* n = node(NK::Local, line);
    n->b = b;
    return n;
  }

  void init(Binding* b, Node* value, Lambda* l, uint32_t line) {
    Node* n = node(NK::InitLocal, line);
    n->b = b;
    n->kids.push_back(value);
    l->prologue.push_back(n);
  }

  static bool binds_something(Value rest) {
    for (; is_cons(rest); rest = cdr(rest))
      if (!car(rest).is_nil()) return true;
    return !rest.is_nil();
  }

  // Binds the variables of pattern against the value in `from`: missing
  // parts are nil (or the (o var default) default), extra parts ignored,
  // a non-list atom is an error (%dcar/%dcdr raise it).
  void destructure(Value pattern, Binding* from, Scope* s, Lambda* l, Value form, uint32_t line,
                   std::vector<Value>& seen) {
    vm_.check_machine_stack();
    Binding* cur = bind(s, gensym(vm_, "%rest"));
    cur->internal = true;
    init(cur, local_ref(from, l, line), l, line);
    Value p = pattern;
    for (; is_cons(p); p = cdr(p)) {
      Value el = car(p);
      if (is_cons(el) && car(el) == vm_.S.o) {
        Value var = is_cons(cdr(el)) ? car(cdr(el)) : NIL;
        check_name(var, form, line, seen);
        Node* test = call_internal("%consp", local_ref(cur, l, line), line);
        Node* iff = node(NK::If, line);
        Value d = is_cons(cdr(cdr(el))) ? car(cdr(cdr(el))) : NIL;
        iff->kids = {test, call_internal("%dcar", local_ref(cur, l, line), line),
                     build(d, s, line)};
        init(bind_param(s, var), iff, l, line);  // a nil's default still runs
      } else if (is_cons(el)) {
        Binding* sub = bind(s, gensym(vm_, "%arg"));
        sub->internal = true;
        init(sub, call_internal("%dcar", local_ref(cur, l, line), line), l, line);
        destructure(el, sub, s, l, form, line, seen);
      } else if (!el.is_nil()) {
        check_name(el, form, line, seen);
        init(bind(s, el), call_internal("%dcar", local_ref(cur, l, line), line), l, line);
      }
      // As in Arc 3.1, a part nothing binds is not taken apart: ((a nil))
      // accepts (1 . 5), since the cdr of 5 is never asked for.
      if (el.is_nil() && !binds_something(cdr(p))) continue;
      Node* step = node(NK::SetLocal, line);
      step->b = cur;
      cur->assigned = true;  // so it keeps a slot of its own (Emitter::alias_init)
      step->kids.push_back(call_internal("%dcdr", local_ref(cur, l, line), line));
      l->prologue.push_back(step);
    }
    if (!p.is_nil()) {
      check_name(p, form, line, seen);
      init(bind(s, p), local_ref(cur, l, line), l, line);
    }
  }

  VM& vm_;
  Value file_;
  std::deque<Node> nodes_;
  std::deque<Binding> bindings_;
  std::deque<Lambda> lambdas_;
  std::deque<LoopInfo> loop_infos_;
  std::deque<PointInfo> point_infos_;
  std::vector<LoopInfo*> loops_;       // the loops being built, innermost last
  int catch_depth_ = 0;                // the %catch forms being built around
  std::vector<Lambda*> points_tried_;  // the frames of the points whose inline body is being built
  bool no_points_ = false;             // inside a point's twin: its points are calls
  int inline_atomic_ = 0;              // inside an inline copy of an atomic body (build_atomic)
  Value twin_thunk_ = NIL;  // the fn form build_fn builds next as a twin (Lambda::twin_thunk)
  Value fn_name_ = NIL;     // what a fn built here is named (build_named)
};

// ---- code generation ----

class Emitter {
 public:
  Emitter(VM& vm, Lambda* l) : vm_(vm), l_(l) {}

  Value emit_lambda() {
    // Required and rest parameters are final at entry; box them now.
    size_t nfixed = l_->nreq + l_->nopt;
    for (size_t i = 0; i < l_->params.size(); ++i)
      if ((i < l_->nreq || i >= nfixed) && l_->params[i]->boxed())
        emit(Op::MKBOX, l_->params[i]->slot);
    for (Node* n : l_->prologue) {
      if (n->kind == NK::OptArg) emit_node(n, false);
      else emit_statement(n);
    }
    emit_node(l_->body, true);
    emit(Op::RETURN);
    return finish();
  }

 private:
  void emit(Op op, uint32_t a = 0) {
    if (a > uint32_t(kMaxOperand))
      throw_error(vm_, "compiler: operand too large (function too big)");
    insns_.push_back(encode(op, a));
    depth_ += kOps[int(op)].effect;
    max_depth_ = std::max(max_depth_, depth_);
  }
  void emit_signed(Op op, int32_t a) {
    insns_.push_back(encode_signed(op, a));
    depth_ += kOps[int(op)].effect;
    max_depth_ = std::max(max_depth_, depth_);
  }
  void pop() { emit(Op::POP); }
  void mark_line(uint32_t line) {
    if (line == 0 || line == last_line_) return;
    last_line_ = line;
    lines_.push_back(uint32_t(insns_.size()));
    lines_.push_back(line);
  }

  uint32_t konst(Value v) {
    for (size_t i = 0; i < consts_.size(); ++i)
      if (consts_[i] == v) return uint32_t(i);
    consts_.push_back(v);
    return uint32_t(consts_.size() - 1);
  }

  // A forward jump: returns the index to patch.
  size_t jump(Op op) {
    emit_signed(op, 0);
    return insns_.size() - 1;
  }
  void patch(size_t at) { patch_to(at, insns_.size()); }
  void patch_to(size_t at, size_t target) {
    int32_t off = int32_t(target) - int32_t(at + 1);
    insns_[at] = encode_signed(insn_op(insns_[at]), off);
  }

  void emit_node(Node* n, bool tail) {
    vm_.check_machine_stack();
    mark_line(n->line);
    switch (n->kind) {
      case NK::Const: return emit_const(n->value);
      case NK::Local: return emit_local(n->b);
      case NK::Global: return emit(Op::LOADG, konst(n->value));
      case NK::SetLocal: return emit_set_local(n);
      case NK::InitLocal: return emit_init_local(n);
      case NK::SetGlobal: emit_node(n->kids[0], false); return emit(Op::STOREG, konst(n->value));
      case NK::If: return emit_if(n, tail);
      case NK::Fn: return emit_fn(n);
      case NK::Call: return emit_call(n, tail);
      case NK::Seq:
        for (size_t i = 0; i + 1 < n->kids.size(); ++i) emit_statement(n->kids[i]);
        return emit_node(n->kids.back(), tail);
      case NK::Let:
        if (emit_field_store(n)) return;
        alias_copies(n);
        for (size_t i = 0; i + 1 < n->kids.size(); ++i) emit_statement(n->kids[i]);
        return emit_node(n->kids.back(), tail);
      case NK::Catch: return emit_catch(n);
      case NK::Point: return emit_point(n);
      case NK::Escape: return emit_escape(n);
      case NK::Prim:
        if (Op imm_op = immediate_op(n); imm_op != Op::Count) {  // (op a k), k a small fixnum
          Op l = local_form(imm_op);
          if (l != Op::Count &&
              (frame_local(n->kids[0]) || (shared_local(n->kids[0]) && box_tolerant(imm_op)))) {
            emit(l, konst(n->value));
            slot_operand(n->kids[0]);
          } else {
            emit_node(n->kids[0], false);
            emit(imm_op, konst(n->value));
          }
          insns_.push_back(uint32_t(int32_t(constant_of(n->kids[1])->value.as_fixnum())));
          return;
        }
        if (n->prim == Op::SREF && slot_local(n->kids[0]) && slot_local(n->kids[2])) {
          emit_node(n->kids[1], false);  // (sref h v k): v; SREFLL h k
          return emit_srefll(n);
        }
        if (Op r = slots_form(n->prim); r != Op::Count && slots_operands(n)) {  // (op a b)
          emit(r, konst(n->value));
          slot_operand(n->kids[0]);
          slot_operand(n->kids[1]);
          return;
        }
        if (Op l = local_form(n->prim); l != Op::Count && frame_local(n->kids.back())) {
          for (size_t i = 0; i + 1 < n->kids.size(); ++i) emit_node(n->kids[i], false);
          emit(l, konst(n->value));
          insns_.push_back(n->kids.back()->b->slot);
          return;
        }
        if (const Node* k = n->prim == Op::SREF ? constant_of(n->kids[2]) : nullptr;
            k && TYPE(k->value) == Kind::Symbol) {  // (sref h v 'k): (= h!k v)
          emit_node(n->kids[0], false);
          emit_node(n->kids[1], false);
          emit(Op::SETF, konst(n->value));
          insns_.push_back(konst(k->value));
          insns_.push_back(0);  // the site's cache
          return;
        }
        for (Node* k : n->kids) emit_node(k, false);
        emit(n->prim, konst(n->value));
        if (kOps[int(n->prim)].form == PrimForm::Count) {  // (+ a b c ...): the count follows
          insns_.push_back(uint32_t(n->kids.size()));
          depth_ -= int(n->kids.size()) - 1;
        }
        return;
      case NK::OptArg: return emit_optarg(n);
      case NK::Loop: return emit_loop(n, tail);
      case NK::LoopJump: return emit_loop_jump(n);
    }
  }

  // True iff n reads a local of this frame that needs no box (what LOADL
  // pushes): a local form can take it.
  bool frame_local(Node* n) const {
    return n->kind == NK::Local && n->b->owner == l_ && !n->b->boxed() && !n->b->shared() &&
           !n->b->constant;
  }

  // True iff n reads a shared local of this frame (LOADX): its slot holds
  // its value, or a box once a capture made one.
  bool shared_local(Node* n) const {
    return n->kind == NK::Local && n->b->owner == l_ && n->b->shared() && !n->b->constant;
  }

  // Either: a local of this frame in a slot, which a slot form reads in
  // place (through the box once a capture made one).
  bool slot_local(Node* n) const { return frame_local(n) || shared_local(n); }

  // Whether an immediate opcode's local form may be given a shared local's
  // slot: the tests, whose fast paths fail on a box and run again on its
  // contents (vm/interp_prims.inc, IMMEDIATE_OP). ISI's words decide alone;
  // the arithmetic ones on a shared local stay LOADX and the opcode, which
  // fuse with the POPX of an update (LOADX_ADDI).
  static bool box_tolerant(Op imm_op) {
    return imm_op == Op::LTI || imm_op == Op::GTI || imm_op == Op::LEI || imm_op == Op::GEI;
  }

  // Whether (op a b) takes a slot form (vm/opcodes.def, Slots): a and b
  // locals of this frame in slots, plain or shared. Of two plain locals, <
  // and > stay LOADL and LTL or GTL: fused as one (LOADL_LTL), and with a
  // counting loop's step (ADDIL_LTL) as a slot form would not be.
  bool slots_operands(Node* n) const {
    if (n->kids.size() != 2) return false;
    Node *a = n->kids[0], *b = n->kids[1];
    if (!(frame_local(a) || shared_local(a)) || !(frame_local(b) || shared_local(b))) return false;
    if (n->prim == Op::LT || n->prim == Op::GT) return shared_local(a) || shared_local(b);
    return true;
  }

  // A local's slot as an operand word; a shared local's noted for Code::shared.
  void slot_operand(Node* n) {
    if (n->b->shared()) note_shared(n->b);
    insns_.push_back(n->b->slot);
  }

  // The constant node n is: itself, or the one a local bound to a constant
  // stands for (alias_init); else nullptr.
  static const Node* constant_of(const Node* n) {
    if (n->kind == NK::Const) return n;
    if (n->kind == NK::Local && n->b->constant) return n->b->constant;
    return nullptr;
  }

  // The immediate opcode for (op a k) with k a fixnum constant that fits
  // 32 bits (vm/opcodes.def, the Imm rows); else Op::Count.
  static Op immediate_op(Node* n) {
    const Node* c = n->kids.size() == 2 ? constant_of(n->kids[1]) : nullptr;
    if (!c || !c->value.is_fixnum()) return Op::Count;
    int64_t k = c->value.as_fixnum();
    if (k < INT32_MIN || k > INT32_MAX) return Op::Count;
    return immediate_form(n->prim);
  }

  // args...; STOREL/POP each parameter; head: MKBOX the boxed ones; body
  void emit_loop(Node* n, bool tail) {
    LoopInfo* l = n->loop;
    for (size_t i = 0; i + 1 < n->kids.size(); ++i) emit_node(n->kids[i], false);
    store_loop_params(l);
    l->head = insns_.size();
    bool boxed = false;
    for (Binding* b : l->params)
      if (b->boxed()) {
        emit(Op::MKBOX, b->slot);
        boxed = true;
      }
    // The test at the bottom skips the head, so not when the head makes
    // fresh boxes for the parameters.
    Node* body = n->kids.back();
    int budget = 8;
    if (!boxed && body->kind == NK::If && repeatable(body->kids[0], budget)) {
      l->test_if = body;
      body->loop = l;
    }
    emit_node(body, tail);
  }

  // A test the loop's bottom can evaluate again: locals, constants,
  // globals and primitives of them (no calls, no functions), a few nodes.
  static bool repeatable(Node* n, int& budget) {
    if (--budget < 0) return false;
    switch (n->kind) {
      case NK::Const:
      case NK::Local:
      case NK::Global: return true;
      case NK::Prim:
        for (Node* k : n->kids)
          if (!repeatable(k, budget)) return false;
        return true;
      default: return false;
    }
  }

  // args...; STOREL/POP each parameter; JUMP head. It leaves no value, but
  // the depth counts one, as for any expression (what follows is unreachable).
  // In a branch of a loop whose test repeats (LoopInfo::test_if): the test;
  // JUMPF back into the else branch, or JUMPT back into the then branch;
  // JUMP to the other branch.
  //
  // A parameter passed as itself, (lp (cdr xs) acc) for acc, keeps its
  // value: it is neither pushed nor stored, when nothing assigns it (an
  // argument before it could) and it has no box (each round's is fresh).
  void emit_loop_jump(Node* n) {
    LoopInfo* l = n->loop;
    std::vector<bool> same(l->params.size());
    for (size_t i = 0; i < n->kids.size(); ++i) {
      Node* k = n->kids[i];
      Binding* b = l->params[i];
      same[i] = k->kind == NK::Local && k->b == b && !b->assigned && !b->boxed();
      if (!same[i]) emit_node(k, false);
    }
    for (size_t i = l->params.size(); i-- > 0;)
      if (!same[i]) emit(Op::POPL, l->params[i]->slot);
    if (l->branch == 2) {
      emit_node(l->test_if->kids[0], false);
      emit_signed(Op::JUMPF, int32_t(l->else_at) - int32_t(insns_.size() + 1));
      emit_signed(Op::JUMP, int32_t(l->then_at) - int32_t(insns_.size() + 1));
    } else if (l->branch == 1) {
      emit_node(l->test_if->kids[0], false);
      emit_signed(Op::JUMPT, int32_t(l->then_at) - int32_t(insns_.size() + 1));
      l->to_else.push_back(jump(Op::JUMP));
    } else {
      emit_signed(Op::JUMP, int32_t(l->head) - int32_t(insns_.size() + 1));
    }
    jump_back_at_ = insns_.size() - 1;  // no RETURN after it (emit_if)
    depth_ += 1;
  }

  void store_loop_params(LoopInfo* l) {
    for (size_t i = l->params.size(); i-- > 0;) emit(Op::POPL, l->params[i]->slot);
  }

  // n for its effect: a value for a local of this frame that needs no box
  // goes straight from the stack into its slot (POPL; POPX for an
  // assignment to a shared one); else n, then POP.
  void emit_statement(Node* n) {
    if (n->kind == NK::InitLocal && alias_init(n)) return;
    if (n->kind == NK::Let && emit_field_store(n)) return pop();
    if (n->kind == NK::Seq || n->kind == NK::Let) {  // each part for its effect
      mark_line(n->line);
      if (n->kind == NK::Let) alias_copies(n);
      for (Node* k : n->kids) emit_statement(k);
      return;
    }
    if (n->kind == NK::If && !n->loop) return emit_if_statement(n);
    if ((n->kind == NK::InitLocal || n->kind == NK::SetLocal) && n->b->owner == l_ &&
        !n->b->boxed()) {
      mark_line(n->line);
      emit_node(n->kids[0], false);
      if (n->kind == NK::SetLocal && n->b->shared()) return emit_shared(Op::POPX, n->b);
      return emit(Op::POPL, n->b->slot);
    }
    emit_node(n, false);
    pop();
  }

  // (= h!k e) of a plain local h: = expands it to (withs (g1 h g2 'k g3 e)
  // ((fn (g4) (sref g1 g4 g2)) g3)), the lets of g1 and g2 aliases of h and
  // the constant (alias_init): e, then SETFL h, which stores the value e
  // left where it is, with no copy in g3's slot nor g4's and no push of h
  // and the copy. h is read after e ran, as the lets read it. The same with
  // a key in a local, (= (h k) e): e; SREFLL h k. n is g3's let (or a let
  // whose body is the sref itself); true if it is emitted so.
  bool emit_field_store(Node* n) {
    if (n->kids.size() != 2 || n->kids[0]->kind != NK::InitLocal) return false;
    // (a let of no bindings, (withs () body)'s, is its body)
    auto body = [](Node* x) {
      while (x->kind == NK::Let && x->kids.size() == 1) x = x->kids[0];
      return x;
    };
    Node *init = n->kids[0], *store = body(n->kids[1]);
    Binding* g = init->b;
    auto temporary = [this](Binding* b) { return b->owner == l_ && !b->assigned && !b->captured; };
    if (!temporary(g)) return false;
    if (store->kind == NK::Let && store->kids.size() == 2 &&
        store->kids[0]->kind == NK::InitLocal && store->kids[0]->kids[0]->kind == NK::Local &&
        store->kids[0]->kids[0]->b == g && temporary(store->kids[0]->b)) {
      g = store->kids[0]->b;  // ((fn (g4) (sref g1 g4 g2)) g3)
      store = body(store->kids[1]);
    }
    if (store->kind != NK::Prim || store->prim != Op::SREF || store->kids.size() != 3) return false;
    Node *h = store->kids[0], *v = store->kids[1], *key = store->kids[2];
    if (v->kind != NK::Local || v->b != g) return false;
    // h and a local key are read after e, as the let reads them; neither may
    // be a temporary whose InitLocal is left out.
    auto other = [&](Node* x) { return x->b != g && x->b != init->b; };
    const Node* k = constant_of(key);
    if (k && TYPE(k->value) == Kind::Symbol && frame_local(h) && other(h)) {
      mark_line(n->line);
      emit_node(init->kids[0], false);
      emit(Op::SETFL, konst(store->value));
      insns_.push_back(konst(k->value));
      insns_.push_back(0);  // the site's cache
      insns_.push_back(h->b->slot);
      return true;
    }
    if (!k && slot_local(h) && slot_local(key) && other(h) && other(key)) {
      mark_line(n->line);  // (= (h k) e): e; SREFLL h k
      emit_node(init->kids[0], false);
      emit_srefll(store);
      return true;
    }
    return false;
  }

  // SREFLL h k for (sref h v k) of slot locals h and k, v on the stack.
  void emit_srefll(Node* sref) {
    emit(Op::SREFLL, konst(sref->value));
    slot_operand(sref->kids[0]);
    slot_operand(sref->kids[2]);
  }

  // A let binding that needs no slot of its own: one never assigned whose
  // first value is another local of this frame never assigned reads that
  // local's slot (both keep their values for as long as the binding is in
  // scope); one whose first value is a constant, and which no closure
  // captures, is the constant, unless a fixnum that a comparison reads: a
  // loop's bound (down's 0) compared as a local fuses with the loop's step
  // (ADDIL_LTL and its kin), as an immediate it would not. So (let g x
  // (sref g v k)), what every = on a place expands to, makes no copy, and
  // (++ place)'s increment is an immediate operand (ADDI). Settled before
  // anything reads the binding: its reads come after this, in its scope.
  bool alias_init(Node* n) {
    Binding* b = n->b;
    Node* init = n->kids[0];
    if (b->aliased) return true;
    if (b->owner != l_ || b->assigned) return false;
    if (init->kind == NK::Local && init->b->constant && !b->captured) {
      b->constant = init->b->constant;
      return true;
    }
    if (init->kind == NK::Local && init->b->owner == l_ && !init->b->assigned &&
        !init->b->constant) {
      b->slot = init->b->slot;
      return true;
    }
    if (init->kind == NK::Const && !b->captured && !(init->value.is_fixnum() && b->compared)) {
      b->constant = init;
      return true;
    }
    return false;
  }

  // A let's copy of an assigned local x of this frame, (let g x body), is x
  // itself where nothing can tell them apart: g never assigned nor
  // captured, x in a slot (no closure assigns it), and up to g's last
  // read nothing that may assign x: no assignment of it, and no call (a
  // primitive's general case is one), after which a re-entered continuation
  // would find x changed and must still see g's value. So (= (h k) v) with
  // k a loop's counter, (let g k (sref h v g)), stores with k's slot as
  // its key. The copy's reads are made reads of x, and its InitLocal
  // emits nothing (alias_init).
  void alias_copies(Node* let) {
    for (size_t i = 0; i + 1 < let->kids.size(); ++i) {
      Node* n = let->kids[i];
      if (n->kind != NK::InitLocal || n->kids[0]->kind != NK::Local) continue;
      Binding *g = n->b, *x = n->kids[0]->b;
      if (g->owner != l_ || g->assigned || g->captured || g->aliased || x->owner != l_ ||
          !x->assigned || x->boxed() || x->constant)
        continue;
      bool may_call = false;
      bool settled = true;
      for (size_t j = i + 1; j < let->kids.size() && settled; ++j)
        settled = reads_settled(let->kids[j], g, x, may_call);
      if (!settled) continue;
      for (size_t j = i + 1; j < let->kids.size(); ++j) retarget(let->kids[j], g, x);
      g->aliased = true;
    }
  }

  // Whether, in n (in its order of evaluation, may_call set by a call
  // before it), every read of g comes before any call and nothing assigns
  // x; only forms of no call but a primitive's are looked into.
  static bool reads_settled(Node* n, Binding* g, Binding* x, bool& may_call) {
    switch (n->kind) {
      case NK::Const:
      case NK::Global: return true;
      case NK::Local: return n->b != g || !may_call;
      case NK::SetLocal:
        if (n->b == x) return false;
        [[fallthrough]];
      case NK::InitLocal:
      case NK::Let:
      case NK::Seq:
      case NK::Prim:
        for (Node* k : n->kids)
          if (!reads_settled(k, g, x, may_call)) return false;
        if (n->kind == NK::Prim) may_call = true;
        return true;
      case NK::If:
        if (n->loop) return false;
        for (Node* k : n->kids)
          if (!reads_settled(k, g, x, may_call)) return false;
        return true;
      default: return false;
    }
  }

  // Makes n's reads of g reads of x (n of the forms reads_settled looks into).
  static void retarget(Node* n, Binding* g, Binding* x) {
    if (n->kind == NK::Local && n->b == g) n->b = x;
    for (Node* k : n->kids) retarget(k, g, x);
  }

  // A shared local's LOADX, STOREX or POPX, its slot noted for Code::shared.
  void emit_shared(Op op, Binding* b) {
    note_shared(b);
    emit(op, b->slot);
  }
  void note_shared(Binding* b) {
    if (std::find(shared_.begin(), shared_.end(), b->slot) == shared_.end())
      shared_.push_back(b->slot);
  }

  void emit_const(Value v) {
    if (v.is_nil()) return emit(Op::NIL);
    if (v == T) return emit(Op::TRUE);
    if (v.is_fixnum() && v.as_fixnum() >= kMinSignedOperand && v.as_fixnum() <= kMaxSignedOperand) {
      return emit_signed(Op::FIXNUM, int32_t(v.as_fixnum()));
    }
    emit(Op::CONST, konst(v));
  }

  void emit_local(Binding* b) {
    if (b->constant) return emit_const(b->constant->value);
    if (b->owner == l_ && b->shared()) return emit_shared(Op::LOADX, b);
    if (b->owner == l_) return emit(b->boxed() ? Op::LOADB : Op::LOADL, b->slot);
    // (an assigned variable is in a box in every closure that has it: a
    // shared one's SHARE made one before the capture)
    emit(b->assigned ? Op::LOADUB : Op::LOADU, l_->capture_index(b));
  }

  void emit_set_local(Node* n) {
    emit_node(n->kids[0], false);
    Binding* b = n->b;
    if (b->owner == l_ && b->shared()) return emit_shared(Op::STOREX, b);
    if (b->owner == l_) return emit(b->boxed() ? Op::STOREB : Op::STOREL, b->slot);
    emit(Op::STOREUB, l_->capture_index(b));
  }

  // A binding's first value: stored, then boxed if it must be.
  void emit_init_local(Node* n) {
    emit_node(n->kids[0], false);
    emit(Op::STOREL, n->b->slot);
    if (n->b->boxed()) emit(Op::MKBOX, n->b->slot);
  }

  // OPTARG skip, slot; <default>; STOREL slot; POP; skip: [MKBOX slot]
  void emit_optarg(Node* n) {
    size_t j = jump(Op::OPTARG);
    insns_.push_back(n->b->slot);
    emit_node(n->kids[0], false);
    emit(Op::STOREL, n->b->slot);
    pop();
    int32_t off = int32_t(insns_.size() - j - 2);
    insns_[j] = encode_signed(Op::OPTARG, off);
    if (n->b->boxed()) emit(Op::MKBOX, n->b->slot);
  }

  // Code for n as an if's test: what follows runs when n is true, and the
  // jumps added to to_false are taken when it is false. An (if a b), what
  // (and a b) expands to, is tested without making its value: a false a
  // jumps straight to to_false, as a false b does, where its value and a
  // JUMPF on it would take a NIL, a JUMP and a JUMPF more. An (or a b),
  // which is (let g a (if g g b)), is tested as a, jumping
  // past the rest of the test when true (JUMPT, which a test's fast path
  // takes in its own dispatch), then b: g is never stored nor read.
  void emit_test(Node* n, std::vector<size_t>& to_false) {
    if (n->kind == NK::If && !n->loop && constant_of(n->kids[2]) &&
        constant_of(n->kids[2])->value.is_nil()) {
      emit_test(n->kids[0], to_false);
      emit_test(n->kids[1], to_false);
      return;
    }
    if (Node* a = or_first(n)) {
      mark_line(n->line);
      emit_node(a, false);
      size_t to_true = jump(Op::JUMPT);
      emit_test(n->kids[1]->kids[2], to_false);
      patch(to_true);
      return;
    }
    emit_node(n, false);
    to_false.push_back(jump(Op::JUMPF));
  }

  // a when n is (let g a (if g g b)) with g read nowhere else: what (or a
  // b) expands to; else nullptr.
  Node* or_first(Node* n) {
    if (n->kind != NK::Let || n->kids.size() != 2) return nullptr;
    Node *init = n->kids[0], *iff = n->kids[1];
    if (init->kind != NK::InitLocal || iff->kind != NK::If || iff->loop) return nullptr;
    Binding* g = init->b;
    if (g->captured || g->assigned) return nullptr;
    auto is_g = [g](Node* k) { return k->kind == NK::Local && k->b == g; };
    if (!is_g(iff->kids[0]) || !is_g(iff->kids[1]) || reads(iff->kids[2], g)) return nullptr;
    return init->kids[0];
  }

  // Whether n reads b (in this frame: a binding no closure captures).
  bool reads(Node* n, Binding* b) {
    vm_.check_machine_stack();
    if (n->kind == NK::Local && n->b == b) return true;
    for (Node* k : n->kids)
      if (reads(k, b)) return true;
    return false;
  }

  // test; JUMPF else; then; JUMP end (RETURN in tail position); else: else; end:
  void emit_if(Node* n, bool tail) {
    std::vector<size_t> to_else;
    emit_test(n->kids[0], to_else);
    int d = depth_;
    LoopInfo* loop = n->loop;  // set when n is a loop's test_if
    if (loop) {
      loop->then_at = insns_.size();
      loop->branch = 1;
    }
    emit_node(n->kids[1], tail);
    size_t to_end = 0;
    if (!tail) to_end = jump(Op::JUMP);
    else if (jump_back_at_ + 1 != insns_.size()) emit(Op::RETURN);
    for (size_t at : to_else) patch(at);
    depth_ = d;
    if (loop) {
      loop->else_at = insns_.size();
      loop->branch = 2;
      for (size_t at : loop->to_else) patch_to(at, loop->else_at);
    }
    emit_node(n->kids[2], tail);
    if (loop) loop->branch = 0;  // a self call after the if jumps to the head
    if (!tail) patch(to_end);
  }

  // An if for its effect: test; JUMPF else; then; [JUMP end; else: else;]
  // end: with each branch a statement, no value is made to be popped
  // after (an atomic body's SREF, whose value a POP after it drops in the
  // same dispatch), and an else that is a constant is nothing.
  //
  // An atomic body's if (Builder::build_atomic), whose then branch is the
  // one that runs while one thread does: ATOMIC; JUMPT then; else; JUMP
  // end; then: then; end:, so the body inline, ATOMIC taking the jump to
  // it, runs on into what follows with no JUMP of its own.
  void emit_if_statement(Node* n) {
    mark_line(n->line);
    if (Node* t = n->kids[0];
        t->kind == NK::Prim && t->prim == Op::ATOMIC && !constant_of(n->kids[2])) {
      emit_node(t, false);
      size_t to_then = jump(Op::JUMPT);
      int d = depth_;
      emit_statement(n->kids[2]);
      size_t to_end = jump(Op::JUMP);
      patch(to_then);
      depth_ = d;
      emit_statement(n->kids[1]);
      patch(to_end);
      return;
    }
    std::vector<size_t> to_else;
    emit_test(n->kids[0], to_else);
    int d = depth_;
    emit_statement(n->kids[1]);
    if (constant_of(n->kids[2])) {
      for (size_t at : to_else) patch(at);
      return;
    }
    size_t to_end = jump(Op::JUMP);
    for (size_t at : to_else) patch(at);
    depth_ = d;
    emit_statement(n->kids[2]);
    patch(to_end);
  }

  // The symbol k when call n is (x 'k), a field's read b!x; else nil.
  static Value field_key(Node* n) {
    if (n->kids.size() != 2) return NIL;
    const Node* k = constant_of(n->kids[1]);
    return k && TYPE(k->value) == Kind::Symbol ? k->value : NIL;
  }

  // [SHARE slot...] CLOSURE k, then a word per capture: slot<<1, or
  // upvalue<<1|1. An atomic thunk's capture of a shared local boxes its
  // slot in place first (Binding::shared).
  void emit_fn(Node* n) {
    Lambda* child = n->fn;
    Value code = Emitter(vm_, child).emit_lambda();
    for (Binding* b : child->captures)
      if (b->owner == l_ && b->shared()) emit_shared(Op::SHARE, b);
    emit(Op::CLOSURE, konst(code));
    for (Binding* b : child->captures) {
      if (b->owner == l_) insns_.push_back(b->slot << 1);
      else insns_.push_back(l_->capture_index(b) << 1 | 1);
    }
  }

  // f args... CALL n | TAILCALL n; x GETF k: (x 'k) of a local or an
  // expression x (b!x, a field's read: vm/opcodes.def), not of a global or
  // a constant (quasiquote's %list), a function called with a symbol far
  // more often than a table.
  void emit_call(Node* n, bool tail) {
    if (Value k = field_key(n);
        !k.is_nil() && n->kids[0]->kind != NK::Global && !constant_of(n->kids[0])) {
      if (frame_local(n->kids[0])) {
        emit(Op::GETFL, konst(k));
        insns_.push_back(n->kids[0]->b->slot);
      } else {
        emit_node(n->kids[0], false);
        emit(Op::GETF, konst(k));
      }
      insns_.push_back(0);  // the site's cache
      return;
    }
    if (!n->value.is_nil()) return emit(Op::STRING, konst(n->value));  // a literal's copy
    for (Node* k : n->kids) emit_node(k, false);
    uint32_t nargs = uint32_t(n->kids.size() - 1);
    emit(tail ? Op::TAILCALL : Op::CALL, nargs);
    depth_ -= int(nargs);
  }

  // CATCH h; body; UNCATCH; JUMP end; h: UNCATCH; handler; SWAP; CALL 1; end:
  // Unwinding leaves the handler's record in place while it runs the
  // cleanups on the way (an error in one comes to this handler too); the
  // handler code pops it (VM::unwind, vm/continuation.cpp).
  // An escape-only point's body (Builder::build_point), for its value:
  // each escape jumps to its end with its value, at the depth the body
  // began at plus one, as the body's own value is. (Not in tail position:
  // the escapes' jumps land here, after whatever the body ended with.)
  void emit_point(Node* n) {
    PointInfo* p = n->point;
    p->depth = depth_;
    emit_node(n->kids[0], false);
    for (size_t at : p->escapes) patch(at);
    jump_back_at_ = size_t(-1);  // code after a loop's back jump is reached now
  }

  // (name v) of an escape-only point: v; SLIDE over what is on the stack
  // above the point's start; JUMP to its end. It leaves no value, but the
  // depth counts one, as for any expression (what follows is unreachable).
  void emit_escape(Node* n) {
    PointInfo* p = n->point;
    int d = depth_;
    if (n->kids.empty()) emit(Op::NIL);
    else emit_node(n->kids[0], false);
    if (int over = depth_ - (p->depth + 1); over > 0) {
      emit(Op::SLIDE, uint32_t(over));
      depth_ -= over;
    }
    p->escapes.push_back(jump(Op::JUMP));
    depth_ = d + 1;
  }

  void emit_catch(Node* n) {
    size_t to_handler = jump(Op::CATCH);
    int d = depth_;
    emit_node(n->kids[0], false);
    emit(Op::UNCATCH);
    size_t to_end = jump(Op::JUMP);
    patch(to_handler);
    emit(Op::UNCATCH);
    depth_ = d + 1;  // the exception
    emit_node(n->kids[1], false);
    emit(Op::SWAP);
    emit(Op::CALL, 1);
    depth_ -= 1;
    patch(to_end);
  }

  // The superinstructions (vm/opcodes.def, FUSED): a head followed by the
  // rest of a sequence the interpreter fuses becomes the fused head; the
  // rest stays as emitted, for the slow path and for jumps into it.
  void fuse() {
    auto op_at = [&](size_t i) { return i < insns_.size() ? insn_op(insns_[i]) : Op::Count; };
    for (size_t pc = 0; pc < insns_.size();) {
      Insn i = insns_[pc];
      Op op = insn_op(i), fused = Op::Count;
      if (op == Op::LOADX && op_at(pc + 1) == Op::POPL) {  // a let's copy of an assigned local
        fused = Op::LOADX_POPL;
      } else if (op == Op::POPL && op_at(pc + 1) == Op::LOADL && op_at(pc + 2) == Op::JUMPT) {
        fused = Op::POPL_JUMPT;  // a loop's bottom
      } else if (op == Op::LOADB && op_at(pc + 3) == Op::STOREB &&
                 insn_a(insns_[pc + 3]) == insn_a(i)) {
        switch (op_at(pc + 1)) {  // LOADB b; op y; STOREB b
          case Op::ADDL: fused = Op::LOADB_ADDL; break;
          case Op::SUBL: fused = Op::LOADB_SUBL; break;
          case Op::ADDI: fused = Op::LOADB_ADDI; break;
          case Op::SUBI: fused = Op::LOADB_SUBI; break;
          default: break;
        }
      } else if (op == Op::LOADX && (op_at(pc + 3) == Op::STOREX || op_at(pc + 3) == Op::POPX) &&
                 insn_a(insns_[pc + 3]) == insn_a(i)) {
        switch (op_at(pc + 1)) {  // LOADX x; op y; STOREX x or POPX x
          case Op::ADDL: fused = Op::LOADX_ADDL; break;
          case Op::SUBL: fused = Op::LOADX_SUBL; break;
          case Op::ADDI: fused = Op::LOADX_ADDI; break;
          case Op::SUBI: fused = Op::LOADX_SUBI; break;
          default: break;
        }
      } else if ((op == Op::ADDIL || op == Op::SUBIL) && op_at(pc + 3) == Op::POPL) {
        // x := x + k; and then (test x m) for a JUMPF or JUMPT: a loop's step
        uint32_t x = insns_[pc + 1], d = insn_a(insns_[pc + 3]);
        Op test = op_at(pc + 5);
        Op jump = op_at(pc + 7);
        bool step = x == d && op_at(pc + 4) == Op::LOADL && insn_a(insns_[pc + 4]) == x &&
                    (test == Op::GTL || test == Op::LTL) &&
                    (jump == Op::JUMPF || jump == Op::JUMPT);
        if (!step) fused = op == Op::ADDIL ? Op::ADDIL_POPL : Op::SUBIL_POPL;
        else if (op == Op::ADDIL) fused = test == Op::GTL ? Op::ADDIL_GTL : Op::ADDIL_LTL;
        else fused = test == Op::GTL ? Op::SUBIL_GTL : Op::SUBIL_LTL;
      } else if (op == Op::ADDLL && (op_at(pc + 3) == Op::POPX || op_at(pc + 3) == Op::POPL) &&
                 insn_a(insns_[pc + 3]) == insns_[pc + 1] && op_at(pc + 7) == Op::JUMPT &&
                 (op_at(pc + 4) == Op::LELL || op_at(pc + 4) == Op::LTLL) &&
                 insns_[pc + 5] == insns_[pc + 1]) {  // x := x + y; then (test x m) for a JUMPT
        fused = op_at(pc + 4) == Op::LELL ? Op::ADDLL_LELL : Op::ADDLL_LTLL;
      } else if (op == Op::ADDLL && op_at(pc + 3) == Op::POPX) {
        fused = Op::ADDLL_POPX;  // (= d (+ x y)) of an assigned local d
      } else if (op == Op::LOADL) {
        switch (op_at(pc + 1)) {  // LOADL a; test b, LOADL a; JUMPF, LOADL a; POPX d, or a lookup
          case Op::JUMPF: fused = Op::LOADL_JUMPF; break;
          case Op::JUMPT: fused = Op::LOADL_JUMPT; break;
          case Op::LTL: fused = Op::LOADL_LTL; break;
          case Op::GTL: fused = Op::LOADL_GTL; break;
          case Op::ISL: fused = Op::LOADL_ISL; break;
          case Op::POPX: fused = Op::LOADL_POPX; break;
          case Op::LOADL:  // LOADL t; LOADL k; CALL 1: (t k), a table's lookup
            if (op_at(pc + 2) == Op::CALL && insn_a(insns_[pc + 2]) == 1) fused = Op::LOADL_LOOKUP;
            break;
          default: break;
        }
      } else if (op == Op::MULLL && op_at(pc + 3) == Op::MULLL &&
                 (op_at(pc + 6) == Op::ADD || op_at(pc + 6) == Op::SUB)) {
        fused = op_at(pc + 6) == Op::ADD ? Op::MULLL_ADD : Op::MULLL_SUB;  // (+ (* a b) (* c d))
      } else if (op == Op::ATOMIC && op_at(pc + 1) == Op::JUMPT && insn_sa(insns_[pc + 1]) >= 0) {
        fused = Op::ATOMIC_JUMPT;  // an atomic statement (emit_if_statement)
      } else if ((op == Op::NIL || op == Op::TRUE) && op_at(pc + 1) == Op::SREFLL) {
        fused = op == Op::NIL ? Op::NIL_SREFLL : Op::TRUE_SREFLL;  // (= (h k) nil), (= (h k) t)
      } else if (op == Op::NIL && op_at(pc + 1) == Op::CONS) {
        fused = Op::NIL_CONS;  // (cons x nil)
      } else if (op == Op::DIV && op_at(pc + 1) == Op::TRUNC) {
        fused = Op::DIV_TRUNC;  // (trunc (/ a b))
      } else if (op == Op::CONST && consts_[insn_a(i)].is_flonum_imm()) {
        switch (op_at(pc + 1)) {  // CONST k; op, k a float
          case Op::LT: fused = Op::CONST_LT; break;
          case Op::GT: fused = Op::CONST_GT; break;
          case Op::LE: fused = Op::CONST_LE; break;
          case Op::GE: fused = Op::CONST_GE; break;
          case Op::ADD: fused = Op::CONST_ADD; break;
          case Op::SUB: fused = Op::CONST_SUB; break;
          case Op::MUL: fused = Op::CONST_MUL; break;
          case Op::LOADL:
          case Op::LOADX:  // CONST k; LOADL a; LOADL b; MULN 3: (* k a b)
            if ((op_at(pc + 2) == Op::LOADL || op_at(pc + 2) == Op::LOADX) &&
                op_at(pc + 3) == Op::MULN && insns_[pc + 4] == 3)
              fused = Op::CONST_MULN;
            break;
          default: break;
        }
      }
      if (fused != Op::Count) insns_[pc] = encode(fused, insn_a(i));
      pc += 1 + insn_extra_words(op);
      if (op == Op::CLOSURE) pc += consts_[insn_a(i)].as<Code>()->nup;
    }
  }

  Value finish() {
    fuse();
    Value lines = make_blob(vm_, lines_.size() * sizeof(uint32_t));
    if (!lines_.empty())  // an empty vector's data() may be null, which memcpy must not get
      std::memcpy(lines.as<Blob>()->data, lines_.data(), lines_.size() * sizeof(uint32_t));
    Value shared = NIL;
    if (!shared_.empty()) {
      shared = make_blob(vm_, shared_.size() * sizeof(uint32_t));
      std::memcpy(shared.as<Blob>()->data, shared_.data(), shared_.size() * sizeof(uint32_t));
    }
    // Constants and instructions inline (vm/code.h); a fresh object's
    // stores need no barrier.
    Code* c =
        alloc<Code>(vm_, Kind::Code, consts_.size() * sizeof(Value) + insns_.size() * sizeof(Insn));
    c->nconsts = uint32_t(consts_.size());
    c->ninsns = uint32_t(insns_.size());
    for (size_t i = 0; i < consts_.size(); ++i) code_consts(c)[i] = consts_[i];
    if (!insns_.empty())
      std::memcpy(const_cast<Insn*>(code_insns(c)), insns_.data(), insns_.size() * sizeof(Insn));
    c->lines = lines;
    c->shared = shared;
    c->name = l_->name;
    c->file = l_->file;
    c->nreq = l_->nreq;
    c->nopt = l_->nopt;
    c->rest = l_->rest;
    c->lenient = l_->lenient;
    c->nlocals = l_->nlocals;
    c->maxstack = uint32_t(max_depth_ + 4);
    c->exact_nargs = l_->nopt || l_->rest ? -1 : int32_t(l_->nreq);
    c->frame_words = c->nlocals + kFrameHeader + c->maxstack;
    c->line = l_->line;
    c->nup = uint32_t(l_->captures.size());
    return Value::ref(c);
  }

  VM& vm_;
  Lambda* l_;
  std::vector<Insn> insns_;
  std::vector<Value> consts_;
  std::vector<uint32_t> lines_;
  std::vector<uint32_t> shared_;  // the slots of shared locals (Code::shared)
  uint32_t last_line_ = 0;
  // The index of the last loop jump (emit_loop_jump): a branch ending in
  // one needs no RETURN after it. One ending in a TAILCALL does: a builtin
  // called in tail position runs in this frame and returns from it, and a
  // continuation it captures (ccc) resumes after the TAILCALL, where the
  // RETURN gives its value back.
  size_t jump_back_at_ = size_t(-1);
  int depth_ = 0, max_depth_ = 0;
};

}  // namespace

Value compile_toplevel(VM& vm, Value form, const std::string& file, uint32_t line) {
  // Expansion runs macros, which may collect and move form: read it first.
  uint64_t pos = pos_of(form);
  gc::Rooted<Value> expanded(vm.heap(), Expander(vm).expand(form));
  // From here on no Arc code runs, so nothing collects.
  std::string f = file;
  if (f.empty() && pos) f = file_name(pos_file(pos));
  Value fname = f.empty() ? NIL : make_string_utf8(vm, f);
  Builder b(vm, fname);
  if (pos) line = pos_line(pos);
  Lambda* top = b.toplevel(expanded, line);
  Value code = Emitter(vm, top).emit_lambda();
  return make_closure(vm, code, 0);
}

Value eval_toplevel(VM& vm, Value form, const std::string& file, uint32_t line) {
  Value fn = compile_toplevel(vm, form, file, line);
  vm.set_top_level_run();
  return vm.apply(fn, nullptr, 0);
}

}  // namespace compiler
