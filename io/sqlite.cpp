// io/sqlite.cpp — SQLite for Arc programs: a database file opened, SQL
// run with parameters, rows read back as lists, the file closed. The news
// site's second store backend (apps/news/store-sqlite.arc) is written
// over these four builtins; anything else may use them too.
//
//   (sql-open path)               a database (made if missing), as a
//                                 tagged object of type sqlite
//   (sql-exec db sql . params)    runs one statement, or several with no
//                                 params; gives how many rows it changed
//   (sql-query db sql . params)   runs one statement; gives its rows, each
//                                 a list of its columns
//   (sql-close db)                closes it (closing twice does nothing)
//
// Parameters bind to the statement's ? in order: a string or a symbol as
// text, an integer (a fixnum) or a flonum as a number, nil as NULL. The
// columns come back as Arc values the same way: text as a string, an
// integer as an integer, a real as a flonum, NULL as nil, a blob as a
// string of its bytes. Each database keeps its prepared statements by
// their text, so a statement run again is not compiled again (the store
// runs a handful of statements, each many times). An error of SQLite's is
// an Arc error with SQLite's own message and the statement's text; a
// statement that fails is reset, so its database stays usable.
//
// SQLite's calls run on the interpreter's OS thread: a commit's fsync
// blocks the process for as long as it takes, as writefile's fsync does
// (io/os.cpp, %durable-mvfile). A connection must not be used across a
// fork (SQLite's "How To Corrupt An SQLite Database File", 2.6): the
// child of a fork (a worker of --workers) that uses a database its parent
// opened gets an error saying so, and its sql-close of it lets the handle
// go without closing it, since closing would drop the POSIX locks the
// parent holds on the file; the child opens the file again for itself.
#include <sqlite3.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "io/io.h"
#include "vm/builtins.h"
#include "vm/error.h"
#include "vm/number.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/vm.h"

namespace vm {

namespace {

struct Database {
  sqlite3* db = nullptr;
  std::string path;
  pid_t pid = 0;                                              // the process that opened it
  std::unordered_map<std::string, sqlite3_stmt*> statements;  // by their text

  // Another process's connection (inherited over a fork) is let go, not
  // closed: closing would drop the POSIX locks its opener holds.
  ~Database() {
    if (pid != getpid()) return;
    for (auto& [text, st] : statements) sqlite3_finalize(st);
    if (db) sqlite3_close_v2(db);
  }
};

// A VM's open databases (its library state, vm/library.h); a database
// value holds its index here plus one: the handle is a number in a tagged
// object, so the collector needs to know nothing of it. They close when
// the VM ends (or exit_process ends the states).
struct Databases final : LibraryState {
  std::vector<std::unique_ptr<Database>> open;
};

std::vector<std::unique_ptr<Database>>& databases(VM& vm) {
  constexpr const char* kName = "sqlite";
  auto* d = static_cast<Databases*>(vm.library_state(kName));
  if (!d) {
    auto made = std::make_unique<Databases>();
    d = made.get();
    vm.set_library_state(kName, std::move(made));
  }
  return d->open;
}

Value database_tag(VM& vm) { return intern(vm, "sqlite"); }

// The database a value names, or the Arc error naming fn.
Database& arg_database(VM& vm, const char* fn, Value v) {
  if (is_tagged(v)) {
    Tagged* t = v.as<Tagged>();
    if (t->tag == database_tag(vm) && t->rep.is_fixnum()) {
      int64_t i = t->rep.as_fixnum() - 1;
      auto& dbs = databases(vm);
      if (i >= 0 && size_t(i) < dbs.size() && dbs[size_t(i)]) {
        Database& d = *dbs[size_t(i)];
        if (d.pid != getpid())
          throw_error(vm, std::string(fn) + ": " + d.path +
                              ": opened by another process (before a fork): open it again here");
        return d;
      }
      throw_error(vm, std::string(fn) + ": the database is closed");
    }
  }
  type_error(vm, fn, "a database (sql-open's)", v);
}

[[noreturn]] void sqlite_error(VM& vm, const char* fn, Database& d, Value sql) {
  throw_error(vm, std::string(fn) + ": " + d.path + ": " + sqlite3_errmsg(d.db), {sql});
}

// Resets a statement when it goes out of scope, whether it ran to its end
// or an error left it half way, so that its next use starts afresh and its
// read lock is let go.
struct Reset {
  sqlite3_stmt* st;
  ~Reset() {
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
  }
};

// The statement for sql, prepared once and kept (the text is the key).
// tail: set to what follows the first statement, if anything does.
sqlite3_stmt* prepared(VM& vm, const char* fn, Database& d, Value sql, bool* several) {
  std::string text = string_utf8(sql);
  auto it = d.statements.find(text);
  if (it != d.statements.end()) {
    *several = false;
    return it->second;
  }
  sqlite3_stmt* st = nullptr;
  const char* tail = nullptr;
  if (sqlite3_prepare_v3(d.db, text.c_str(), int(text.size()), SQLITE_PREPARE_PERSISTENT, &st,
                         &tail) != SQLITE_OK)
    sqlite_error(vm, fn, d, sql);
  if (!st) throw_error(vm, std::string(fn) + ": no statement in", {sql});
  *several = false;
  for (const char* p = tail; p && *p; ++p)
    if (*p != ' ' && *p != '\n' && *p != '\t' && *p != '\r' && *p != ';') *several = true;
  if (*several) {
    sqlite3_finalize(st);  // not kept: the caller runs the text otherwise
    return nullptr;
  }
  d.statements.emplace(std::move(text), st);
  return st;
}

void bind(VM& vm, const char* fn, Database& d, sqlite3_stmt* st, Value sql, Value* params, int n) {
  if (n != sqlite3_bind_parameter_count(st))
    throw_error(vm,
                std::string(fn) + ": the statement has " +
                    std::to_string(sqlite3_bind_parameter_count(st)) + " parameters, given " +
                    std::to_string(n),
                {sql});
  for (int i = 0; i < n; ++i) {
    Value v = params[i];
    int rc;
    switch (TYPE(v)) {
      case Kind::Nil: rc = sqlite3_bind_null(st, i + 1); break;
      case Kind::Fixnum: rc = sqlite3_bind_int64(st, i + 1, v.as_fixnum()); break;
      case Kind::Flonum: rc = sqlite3_bind_double(st, i + 1, flonum_value(v)); break;
      case Kind::String:
      case Kind::Symbol: {
        std::string s = TYPE(v) == Kind::String ? string_utf8(v) : symbol_name(v);
        rc = sqlite3_bind_text(st, i + 1, s.data(), int(s.size()), SQLITE_TRANSIENT);
        break;
      }
      default:
        arg_error(vm, fn, i + 3, v,
                  "; a parameter is a string, a symbol, a fixnum, a flonum or nil");
    }
    if (rc != SQLITE_OK) sqlite_error(vm, fn, d, sql);
  }
}

Value column(VM& vm, sqlite3_stmt* st, int i) {
  switch (sqlite3_column_type(st, i)) {
    case SQLITE_INTEGER: return make_integer(vm, sqlite3_column_int64(st, i));
    case SQLITE_FLOAT: return make_flonum(vm, sqlite3_column_double(st, i));
    case SQLITE_NULL: return NIL;
    default: {  // text, or a blob's bytes
      const char* p = reinterpret_cast<const char*>(sqlite3_column_text(st, i));
      return make_string_utf8(vm,
                              std::string_view(p ? p : "", size_t(sqlite3_column_bytes(st, i))));
    }
  }
}

// Runs the statement to its end; with rows, collects them (in order).
Value run(VM& vm, const char* fn, Database& d, sqlite3_stmt* st, Value sql, bool rows) {
  Reset reset{st};
  Value head = NIL, last = NIL;
  for (;;) {
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) sqlite_error(vm, fn, d, sql);
    if (!rows) continue;
    int n = sqlite3_column_count(st);
    Value row = NIL;
    for (int i = n - 1; i >= 0; --i) row = cons(vm, column(vm, st, i), row);
    Value cell = cons(vm, row, NIL);
    if (last.is_nil()) head = cell;
    else set(vm, last.as<Cons>(), &last.as<Cons>()->cdr, cell);
    last = cell;
  }
  return head;
}

// (sql-open path): the database file at path, made if missing. A busy
// database (another process writing) is waited for up to 5 seconds
// before a statement fails with "database is locked".
Value bi_sql_open(VM& vm, Value* args, int) {
  std::string path = arg_text(vm, "sql-open", args[0]);
  auto d = std::make_unique<Database>();
  d->path = path;
  d->pid = getpid();
  int rc = sqlite3_open_v2(
      path.c_str(), &d->db,
      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE,
      nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = d->db ? sqlite3_errmsg(d->db) : sqlite3_errstr(rc);
    throw_error(vm, "sql-open: " + path + ": " + msg);
  }
  sqlite3_busy_timeout(d->db, 5000);
  auto& dbs = databases(vm);
  size_t i = 0;
  while (i < dbs.size() && dbs[i]) ++i;
  if (i == dbs.size()) dbs.emplace_back();
  dbs[i] = std::move(d);
  return make_tagged(vm, database_tag(vm), Value::fixnum(int64_t(i) + 1));
}

Value exec_or_query(VM& vm, const char* fn, Value* args, int n, bool rows) {
  Database& d = arg_database(vm, fn, args[0]);
  Value sql = arg_string(vm, fn, args[1]);
  bool several = false;
  sqlite3_stmt* st = prepared(vm, fn, d, sql, &several);
  if (st) {
    bind(vm, fn, d, st, sql, args + 2, n - 2);
    Value out = run(vm, fn, d, st, sql, rows);
    return rows ? out : make_integer(vm, sqlite3_changes64(d.db));
  }
  // Several statements (a schema, say): each once, none kept.
  if (rows || n > 2)
    throw_error(
        vm, std::string(fn) + ": one statement at a time" + (rows ? "" : " when it has parameters"),
        {sql});
  std::string text = string_utf8(sql);
  const char* p = text.c_str();
  int64_t changed = 0;
  while (p && *p) {
    sqlite3_stmt* one = nullptr;
    const char* tail = nullptr;
    if (sqlite3_prepare_v2(d.db, p, -1, &one, &tail) != SQLITE_OK) sqlite_error(vm, fn, d, sql);
    if (!one) break;  // only white space or a comment was left
    struct Finalize {
      sqlite3_stmt* st;
      ~Finalize() { sqlite3_finalize(st); }
    } fin{one};
    int rc;
    while ((rc = sqlite3_step(one)) == SQLITE_ROW) {
    }
    if (rc != SQLITE_DONE) sqlite_error(vm, fn, d, sql);
    changed += sqlite3_changes64(d.db);
    p = tail;
  }
  return make_integer(vm, changed);
}

// (sql-exec db sql . params): how many rows the statement changed
// (inserted, updated, deleted); rows it gives (a PRAGMA's) are dropped.
Value bi_sql_exec(VM& vm, Value* args, int n) {
  return exec_or_query(vm, "sql-exec", args, n, false);
}

// (sql-query db sql . params): the statement's rows, each a list.
Value bi_sql_query(VM& vm, Value* args, int n) {
  return exec_or_query(vm, "sql-query", args, n, true);
}

// (sql-close db): its statements finalized, the file closed (a transaction
// left open is rolled back, as SQLite does).
Value bi_sql_close(VM& vm, Value* args, int) {
  if (is_tagged(args[0]) && args[0].as<Tagged>()->tag == database_tag(vm) &&
      args[0].as<Tagged>()->rep.is_fixnum()) {
    int64_t i = args[0].as<Tagged>()->rep.as_fixnum() - 1;
    auto& dbs = databases(vm);
    if (i >= 0 && size_t(i) < dbs.size()) dbs[size_t(i)].reset();  // ~Database: closed or let go
    return NIL;
  }
  type_error(vm, "sql-close", "a database (sql-open's)", args[0]);
}

const BuiltinDef kDefs[] = {
    {"sql-open", bi_sql_open, 1, 1, "(sql-open path): an SQLite database, made if missing"},
    {"sql-exec", bi_sql_exec, 2, -1,
     "(sql-exec db sql . params): runs SQL; gives how many rows it changed"},
    {"sql-query", bi_sql_query, 2, -1, "(sql-query db sql . params): the rows, each a list"},
    {"sql-close", bi_sql_close, 1, 1, "(sql-close db): closes the database"},
};

}  // namespace

void register_sqlite_builtins(VM& vm) { define_builtins(vm, kDefs); }

}  // namespace vm
