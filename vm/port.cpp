// vm/port.cpp — the PortImpl kinds behind Arc ports: buffered file
// descriptors (input and output) and in-memory strings (input and output),
// plus the UTF-8 character layer every port shares.
//
// Characters are decoded from bytes here, not by the subclasses, so readb and
// readc can be mixed freely on one port. peek_char decodes a character and
// gives its bytes back through the small pushback in PortImpl; that is why
// subclasses implement next_byte/look_byte and callers use read_byte/peek_byte.
#include "vm/port.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <memory>
#include <unordered_set>

#include "vm/error.h"
#include "vm/string.h"
#include "vm/thread.h"
#include "vm/vm.h"

extern char** environ;

namespace vm {

namespace {
TerminalHooks g_terminal_hooks;  // process-wide: see vm/port.h
}  // namespace

void set_terminal_hooks(TerminalHooks hooks) { g_terminal_hooks = hooks; }
const TerminalHooks& terminal_hooks() { return g_terminal_hooks; }

namespace {

constexpr size_t kBufSize = 64 * 1024;
constexpr int32_t kReplacement = 0xFFFD;

// ---- file descriptors ----

class FdInput final : public PortImpl {
 public:
  FdInput(VM& vm, int fd, const std::string& nm, bool owns) : vm_(vm), fd_(fd), owns_(owns) {
    is_input = true;
    name = nm;
  }
  ~FdInput() override { release(); }
  void write_bytes(const char*, size_t) override {}
  void close() override {
    release();
    PortImpl::close();
  }
  int fd() const override { return fd_; }

 protected:
  int next_byte() override { return (pos_ < end_ || fill()) ? buf_[pos_++] : -1; }
  int look_byte() override { return (pos_ < end_ || fill()) ? buf_[pos_] : -1; }

 private:
  // Refills an empty buffer. End of input is not latched: a terminal can
  // deliver more after a Ctrl-D. A read error reads as end of input.
  bool fill() {
    if (fd_ < 0) return false;
    // new[] without (): make_unique would zero all 64 KiB, touching every page.
    if (!buf_) buf_.reset(new uint8_t[kBufSize]);
    ssize_t n;
    // With other threads about, wait for input as a thread (they run
    // meanwhile) rather than in read().
    wait_fd(vm_, fd_, false);
    // Another thread reading this port may have filled the buffer meanwhile.
    if (pos_ < end_) return true;
    if (fd_ < 0) return false;  // or closed it
    // A signal (Ctrl-C) wakes a blocked read: raise the interrupt if one
    // is pending, else read again.
    while ((n = ::read(fd_, buf_.get(), kBufSize)) < 0 && errno == EINTR) vm_.poll_interrupt();
    pos_ = 0;
    end_ = n > 0 ? size_t(n) : 0;
    return end_ > 0;
  }
  void release() {
    if (owns_) close_fd(vm_, fd_);
    fd_ = -1;
  }

  VM& vm_;
  int fd_;
  bool owns_;
  std::unique_ptr<uint8_t[]> buf_;  // allocated on first read
  size_t pos_ = 0, end_ = 0;
};

// Every FdOutput, so that release_output_buffers can reach them. Ports are
// made and destroyed on the VM's thread only.
class FdOutput;
std::unordered_set<FdOutput*>& fd_outputs() {
  static auto* all = new std::unordered_set<FdOutput*>();
  return *all;
}

class FdOutput final : public PortImpl {
 public:
  FdOutput(VM& vm, int fd, const std::string& nm, bool owns)
      : vm_(vm), fd_(fd), owns_(owns), line_buffered_(isatty(fd)), regular_(is_regular(fd)) {
    is_output = true;
    name = nm;
    fd_outputs().insert(this);
  }
  ~FdOutput() override {
    close_quietly();
    fd_outputs().erase(this);
  }
  // An empty buffer's memory, given back: a buffer keeps the room of its
  // largest fill (a log's between two flushes, which grows while many
  // threads keep the flusher waiting) for as long as its port lives.
  size_t release_buffer() {
    if (!buf_.empty() || draining_ || buf_.capacity() <= kKeptCapacity) return 0;
    size_t n = buf_.capacity();
    std::string().swap(buf_);
    return n;
  }
  void write_bytes(const char* p, size_t n) override {
    if (fd_ < 0) return;
    size_t from = buf_.size();
    buf_.append(p, n);
    wrote(from);
  }
  std::string* out_buffer() override { return fd_ < 0 ? nullptr : &buf_; }
  void wrote(size_t from) override {
    // A terminal sees each line as it is finished (prompts flush explicitly).
    if (buf_.size() >= kBufSize ||
        (line_buffered_ && from < buf_.size() && memchr(&buf_[from], '\n', buf_.size() - from)))
      flush();
  }
  void flush() override {
    int err = drain(true);
    if (err) throw_error(vm_, "cannot write to " + name + ": " + strerror(err));
  }
  // Never throws: it also runs from the collector's finalizer.
  void close() override {
    close_quietly();
    PortImpl::close();
  }
  int fd() const override { return fd_; }

 private:
  // Writes the whole buffer, retrying interrupted and partial writes.
  // Returns 0 or the errno that stopped it; the unwritten bytes are dropped
  // so one failure is reported once.
  //
  // With may_wait and other threads about, a full pipe is waited for as a
  // thread (the others run), and each write after a wait is at most
  // PIPE_BUF bytes, which a writable pipe takes without blocking. Never
  // from close(), which the collector's finalizers call. One drain at a
  // time per port: a second thread flushing meanwhile leaves its bytes to
  // the first, which writes until the buffer is empty, including what is
  // added while it waits.
  int drain(bool may_wait = false) {
    if (draining_) return 0;
    struct Guard {  // however the drain ends (a kill or break while waiting)
      FdOutput& port;
      size_t done = 0;
      ~Guard() {
        port.buf_.erase(0, std::min(done, port.buf_.size()));  // what was written
        port.draining_ = false;
      }
    } g{*this};
    draining_ = true;
    // A regular file is always ready: no wait (and no poll) before writing.
    bool threads = may_wait && !regular_ && other_threads(vm_);
    int err = 0;
    while (g.done < buf_.size() && fd_ >= 0) {
      size_t chunk = buf_.size() - g.done;
      if (threads) {
        wait_fd(vm_, fd_, true);
        if (fd_ < 0) break;  // another thread closed it
        chunk = std::min(chunk, size_t(PIPE_BUF));
      }
      // No thread switch between hide and show: a chunk is written whole.
      const TerminalHooks& hooks = g_terminal_hooks;
      bool around = line_buffered_ && hooks.hide && hooks.show;
      if (around) hooks.hide();
      ssize_t n = ::write(fd_, buf_.data() + g.done, chunk);
      if (around) hooks.show(n > 0 && buf_[g.done + size_t(n) - 1] == '\n');
      if (n >= 0) g.done += size_t(n);
      else if (errno != EINTR) {
        err = errno;
        g.done = buf_.size();  // dropped: reported once
        break;
      }
    }
    if (fd_ < 0) g.done = buf_.size();
    return err;
  }
  void close_quietly() {
    drain();
    if (owns_) close_fd(vm_, fd_);
    fd_ = -1;
  }

  static bool is_regular(int fd) {
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  }

  static constexpr size_t kKeptCapacity = 4096;
  VM& vm_;
  int fd_;
  bool owns_;
  bool line_buffered_;
  bool regular_;
  bool draining_ = false;
  std::string buf_;
};

// ---- strings ----

class StringInput final : public PortImpl {
 public:
  explicit StringInput(const std::string& s) : s_(s) {
    is_input = true;
    name = "string";
  }
  void write_bytes(const char*, size_t) override {}

 protected:
  int next_byte() override { return pos_ < s_.size() ? uint8_t(s_[pos_++]) : -1; }
  int look_byte() override { return pos_ < s_.size() ? uint8_t(s_[pos_]) : -1; }

 private:
  std::string s_;
  size_t pos_ = 0;
};

class StringOutput final : public PortImpl {
 public:
  StringOutput() {
    is_output = true;
    name = "string";
  }
  void write_bytes(const char* p, size_t n) override { s_.append(p, n); }
  std::string* out_buffer() override { return &s_; }
  std::string* contents() override { return &s_; }

 private:
  std::string s_;
};

// An Arc error for a failed open, naming the path and the OS reason.
[[noreturn]] void open_error(VM& vm, const char* what, const std::string& path, int err) {
  throw_error(vm, std::string("cannot open ") + what + " file " + path + ": " + strerror(err));
}

}  // namespace

// ---- the UTF-8 layer ----

int32_t PortImpl::decode(uint8_t seen[4], int& n) {
  n = 0;
  int b0 = read_byte();
  if (b0 < 0) return -1;
  seen[n++] = uint8_t(b0);
  if (b0 < 0x80) return b0;
  int need;
  uint32_t cp, min;
  if ((b0 & 0xE0) == 0xC0) need = 1, cp = b0 & 0x1F, min = 0x80;
  else if ((b0 & 0xF0) == 0xE0) need = 2, cp = b0 & 0x0F, min = 0x800;
  else if ((b0 & 0xF8) == 0xF0) need = 3, cp = b0 & 0x07, min = 0x10000;
  else return kReplacement;  // a stray continuation byte or 0xF8..0xFF
  // Continuation bytes are only consumed when they are valid, so a broken
  // sequence costs its lead byte and never swallows the next character.
  for (int i = 0; i < need; ++i) {
    int b = peek_byte();
    if (b < 0 || (b & 0xC0) != 0x80) return kReplacement;
    seen[n++] = uint8_t(read_byte());
    cp = (cp << 6) | (b & 0x3F);
  }
  bool bad = cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF);
  return bad ? kReplacement : int32_t(cp);
}

int32_t PortImpl::read_char() {
  uint8_t seen[4];
  int n;
  return decode(seen, n);
}

int32_t PortImpl::peek_char() {
  uint8_t seen[4];
  int n;
  int32_t c = decode(seen, n);
  // Give the bytes back, first byte on top (pb_ pops from the end).
  for (int i = n - 1; i >= 0 && pb_n_ < 4; --i) pb_[pb_n_++] = seen[i];
  return c;
}

void PortImpl::write_char(uint32_t c) {
  char b[4];
  write_bytes(b, utf8_encode(c, b));
}

// ---- port objects ----

Value make_port(VM& vm, PortImpl* impl) {
  Port* p = alloc<Port>(vm, Kind::Port);
  p->impl = impl;
  return Value::ref(p);
}

bool is_input_port(Value v) {
  return TYPE(v) == Kind::Port && port_impl(v) && port_impl(v)->is_input;
}
bool is_output_port(Value v) {
  return TYPE(v) == Kind::Port && port_impl(v) && port_impl(v)->is_output;
}

size_t release_output_buffers() {
  size_t n = 0;
  for (FdOutput* p : fd_outputs()) n += p->release_buffer();
  return n;
}

void flush_quietly(Value port) {
  if (!is_output_port(port) || port_impl(port)->closed) return;
  try {
    port_impl(port)->flush();
  } catch (const ArcError&) {
  }
}

// ---- constructors ----

PortImpl* open_input_file(VM& vm, const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) open_error(vm, "input", path, errno);
  // open(2) accepts a directory for reading; reading it would fail later.
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    open_error(vm, "input", path, EISDIR);
  }
  return new FdInput(vm, fd, path, true);
}

PortImpl* open_output_file(VM& vm, const std::string& path, bool append) {
  int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
  int fd = ::open(path.c_str(), flags, 0666);
  if (fd < 0) open_error(vm, "output", path, errno);
  return new FdOutput(vm, fd, path, true);
}

PortImpl* make_input_string(const std::string& utf8) { return new StringInput(utf8); }
PortImpl* make_output_string() { return new StringOutput(); }

PortImpl* make_fd_input(VM& vm, int fd, const std::string& name, bool owns) {
  return new FdInput(vm, fd, name, owns);
}
PortImpl* make_fd_output(VM& vm, int fd, const std::string& name, bool owns) {
  return new FdOutput(vm, fd, name, owns);
}

// ---- shell commands ----

int spawn_shell(const std::string& cmd, int out_fd) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
  const char* argv[] = {"sh", "-c", cmd.c_str(), nullptr};
  pid_t pid;
  int rc = posix_spawn(&pid, "/bin/sh", &fa, nullptr, const_cast<char**>(argv), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    errno = rc;
    return -1;
  }
  return pid;
}

int wait_child(VM& vm, int pid) {
  // With other threads about, wait as a thread: a pidfd is readable once
  // the child has exited (Linux 5.3; older kernels wait in waitpid).
  if (other_threads(vm)) {
    int pfd = int(syscall(SYS_pidfd_open, pid, 0));
    if (pfd >= 0) {
      try {
        wait_fd(vm, pfd, false);
      } catch (...) {
        // The thread was killed or broken while it waited: the child goes
        // on, and is reaped when it exits.
        ::close(pfd);
        if (waitpid(pid, nullptr, WNOHANG) == 0) reap_later(vm, pid);
        throw;
      }
      ::close(pfd);
    }
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return status;
}

}  // namespace vm
