// io/crypto.cpp — what app.arc's users and srv.arc's ids need from
// libsodium: Argon2id password hashes (%pw-hash, %pw-verify), a fast
// digest for secrets that are random already (%digest: session tokens),
// and random strings from the kernel's source (rand-string, also Arc
// 3.1's name).
//
// An Argon2id hash takes tens of milliseconds and 64 MiB by design, so it
// never runs on the interpreter's OS thread (docs/ARCHITECTURE.md invariant 7): a job
// goes to a small pool of hashing threads, and the green thread that asked
// parks on an eventfd the job signals when done. Two threads at most, so
// a burst of logins costs at most 128 MiB and two cores, the rest queued.
#include <pthread.h>
#include <sodium.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "io/io.h"
#include "vm/builtins.h"
#include "vm/error.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/thread.h"
#include "vm/vm.h"

namespace vm {

namespace {

struct Job {
  bool verify = false;
  std::string password, hash;  // hash: the result of a hash, the input of a verify
  unsigned long long ops = 0;
  size_t mem = 0;
  bool ok = false;
  int done_fd = -1;  // written once the job is done
  ~Job() {
    sodium_memzero(password.data(), password.size());
    if (done_fd >= 0) ::close(done_fd);
  }
};

class HashPool {
 public:
  void submit(std::shared_ptr<Job> j) {
    std::lock_guard<std::mutex> l(m_);
    q_.push_back(std::move(j));
    if (threads_ < kThreads && idle_ == 0) {
      ++threads_;
      std::thread(&HashPool::work, this).detach();
    }
    cv_.notify_one();
  }

 private:
  static constexpr int kThreads = 2;
  void work() {
    std::unique_lock<std::mutex> l(m_);
    for (;;) {
      ++idle_;
      cv_.wait(l, [&] { return !q_.empty(); });
      --idle_;
      std::shared_ptr<Job> j = std::move(q_.front());
      q_.pop_front();
      l.unlock();
      run(*j);
      uint64_t one = 1;
      (void)!write(j->done_fd, &one, sizeof one);
      j.reset();
      l.lock();
    }
  }
  static void run(Job& j) {
    if (j.verify) {
      j.ok = crypto_pwhash_str_verify(j.hash.c_str(), j.password.data(), j.password.size()) == 0;
    } else {
      char out[crypto_pwhash_STRBYTES];
      j.ok = crypto_pwhash_str(out, j.password.data(), j.password.size(), j.ops, j.mem) == 0;
      if (j.ok) j.hash = out;
    }
  }
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<std::shared_ptr<Job>> q_;
  int threads_ = 0, idle_ = 0;
};

// Process-wide: the pool's OS threads serve every green thread of the
// process, and a fork (pool_after_fork) is a process event.
HashPool* g_pool = nullptr;

// A child of fork (the server's workers) has none of the parent's threads:
// it starts a pool of its own (the old one is left as it was: its mutex
// may have been held at the fork).
void pool_after_fork() { g_pool = nullptr; }

HashPool& pool() {
  static bool registered = [] { return pthread_atfork(nullptr, nullptr, pool_after_fork) == 0; }();
  (void)registered;
  if (!g_pool) g_pool = new HashPool();
  return *g_pool;
}

// Runs j on the pool; the calling green thread waits (the others run).
void run_job(VM& vm, std::shared_ptr<Job> j) {
  j->done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (j->done_fd < 0) throw_error(vm, "password hashing: cannot make an eventfd");
  int fd = j->done_fd;
  pool().submit(j);  // the pool holds it too, so a thread broken while it waits loses nothing
  while (wait_io(vm, fd, false, 0) != IoWait::Ready) {
  }
  uint64_t n;
  (void)!read(fd, &n, sizeof n);
}

// The cost of new hashes, from the global pwhash-cost*: interactive (the
// default: libsodium's interactive limits, 2 passes over 64 MiB), moderate,
// sensitive, or min (for tests: hashes are still Argon2id).
void hash_cost(VM& vm, unsigned long long& ops, size_t& mem) {
  Value v = global_value(intern(vm, "pwhash-cost*"));
  std::string c = TYPE(v) == Kind::Symbol ? symbol_name(v) : "interactive";
  if (c == "min") {
    ops = crypto_pwhash_OPSLIMIT_MIN;
    mem = crypto_pwhash_MEMLIMIT_MIN;
  } else if (c == "moderate") {
    ops = crypto_pwhash_OPSLIMIT_MODERATE;
    mem = crypto_pwhash_MEMLIMIT_MODERATE;
  } else if (c == "sensitive") {
    ops = crypto_pwhash_OPSLIMIT_SENSITIVE;
    mem = crypto_pwhash_MEMLIMIT_SENSITIVE;
  } else {
    ops = crypto_pwhash_OPSLIMIT_INTERACTIVE;
    mem = crypto_pwhash_MEMLIMIT_INTERACTIVE;
  }
}

// (%pw-hash pw): libsodium's encoded Argon2id hash of pw ("$argon2id$...").
Value bi_pw_hash(VM& vm, Value* args, int) {
  auto j = std::make_shared<Job>();
  j->password = string_utf8(arg_string(vm, "%pw-hash", args[0]));
  hash_cost(vm, j->ops, j->mem);
  run_job(vm, j);
  if (!j->ok) throw_error(vm, "%pw-hash: out of memory for the hash");
  return make_string_utf8(vm, j->hash);
}

// (%pw-verify hash pw): t if pw is the password hash was made from; nil
// for any other password and for what is not an Argon2id hash (Arc 3.1's
// SHA-1 hashes included).
Value bi_pw_verify(VM& vm, Value* args, int) {
  if (!is_string(args[0]) || !is_string(args[1])) return NIL;
  auto j = std::make_shared<Job>();
  j->verify = true;
  j->hash = string_utf8(args[0]);
  j->password = string_utf8(args[1]);
  if (j->hash.rfind("$argon2", 0) != 0 || j->hash.size() >= crypto_pwhash_STRBYTES) return NIL;
  run_job(vm, j);
  return boolean(j->ok);
}

// (rand-string n): n characters from [0-9a-zA-Z], each uniformly from the
// kernel's random source (randombytes_uniform: no modulo bias). 22 of
// them carry 131 bits.
Value bi_rand_string(VM& vm, Value* args, int) {
  static const char kChars[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  int64_t n = arg_index(vm, "rand-string", args[0]);
  if (n > (int64_t(1) << 24)) type_error(vm, "rand-string", "a length up to 16 Mi", args[0]);
  Value s = make_string(vm, uint64_t(n));
  for (int64_t i = 0; i < n; ++i)
    string_set(vm, s, uint64_t(i), uint8_t(kChars[randombytes_uniform(62)]));
  return s;
}

// (%digest s): the BLAKE2b-256 digest of s's UTF-8 bytes, as 64 hex
// digits. For a secret of 128 random bits or more, which no one can guess
// whatever the hash's speed, so that checking one costs microseconds (a
// password needs Argon2id's cost, %pw-hash, since people choose them).
Value bi_digest(VM& vm, Value* args, int) {
  if (!is_string(args[0])) type_error(vm, "%digest", "a string", args[0]);
  std::string text = string_utf8(args[0]);
  unsigned char out[crypto_generichash_BYTES];
  crypto_generichash(out, sizeof out, reinterpret_cast<const unsigned char*>(text.data()),
                     text.size(), nullptr, 0);
  char hex[2 * sizeof out + 1];
  sodium_bin2hex(hex, sizeof hex, out, sizeof out);
  sodium_memzero(text.data(), text.size());
  return make_string_utf8(vm, std::string_view(hex, 2 * sizeof out));
}

const BuiltinDef kDefs[] = {
    {"%pw-hash", bi_pw_hash, 1, 1, "the Argon2id hash of a password (libsodium's string form)"},
    {"%pw-verify", bi_pw_verify, 2, 2, "(%pw-verify hash pw): t if pw matches hash"},
    {"%digest", bi_digest, 1, 1, "the BLAKE2b-256 digest of a string, in hex"},
    {"rand-string", bi_rand_string, 1, 1,
     "n random characters [0-9a-zA-Z] from the kernel's source"},
};

}  // namespace

void register_crypto_builtins(VM& vm) {
  if (sodium_init() < 0) throw_error(vm, "libsodium cannot start");
  define_builtins(vm, kDefs);
}

}  // namespace vm
