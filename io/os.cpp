// io/os.cpp — the builtins that reach the operating system's files and
// processes (docs/LANGUAGE.md 4.9 and 4.10): opening files as ports
// (infile, outfile), directories and files (dir, file-exists, rmfile,
// mvfile, the durable rename writefile ends with), running shell commands
// (system, pipe-from) and setuid. The ports themselves, string ports and
// the standard ports are the core's (vm/port.h), which the reader and the
// printer use; what opens a file or starts a process is here.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "io/io.h"
#include "vm/builtins.h"
#include "vm/error.h"
#include "vm/port.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/thread.h"
#include "vm/vm.h"

namespace vm {

namespace {

// "fn: what path: reason" from the errno of the call that failed.
[[noreturn]] void os_error(VM& vm, const char* fn, const char* what, const std::string& path) {
  int err = errno;
  throw_error(vm, std::string(fn) + ": " + what + " " + path + ": " + strerror(err));
}

// ---- opening files ----

Value bi_infile(VM& vm, Value* args, int) {
  return make_port(vm, open_input_file(vm, arg_text(vm, "infile", args[0])));
}

// Only the symbol `append` appends; anything else truncates (as Arc 3.1).
Value bi_outfile(VM& vm, Value* args, int nargs) {
  std::string path = arg_text(vm, "outfile", args[0]);
  // The mode is 'append or nothing (nil too): any other is a mistake, not
  // a silent truncation of the file.
  bool append = nargs > 1 && args[1].truthy();
  if (append && (TYPE(args[1]) != Kind::Symbol || symbol_name(args[1]) != "append"))
    throw_error(vm, "outfile: the mode is 'append, got", {args[1]});
  return make_port(vm, open_output_file(vm, path, append));
}

// ---- files and directories ----

// Sorted, so programs (and tests) see the same order on every file system.
Value bi_dir(VM& vm, Value* args, int) {
  std::string path = arg_text(vm, "dir", args[0]);
  DIR* d = opendir(path.c_str());
  if (!d) os_error(vm, "dir", "cannot open directory", path);
  std::vector<std::string> names;
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  // No safe point inside a builtin, so the partial list needs no root.
  Value result = NIL;
  for (auto it = names.rbegin(); it != names.rend(); ++it)
    result = cons(vm, make_string_utf8(vm, *it), result);
  return result;
}

bool stat_mode(const std::string& path, mode_t& mode) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return false;
  mode = st.st_mode;
  return true;
}

// Returns the path argument itself, as Arc 3.1 does.
Value bi_file_exists(VM& vm, Value* args, int) {
  mode_t m;
  return stat_mode(arg_text(vm, "file-exists", args[0]), m) && S_ISREG(m) ? args[0] : NIL;
}

Value bi_dir_exists(VM& vm, Value* args, int) {
  mode_t m;
  return stat_mode(arg_text(vm, "dir-exists", args[0]), m) && S_ISDIR(m) ? args[0] : NIL;
}

Value bi_rmfile(VM& vm, Value* args, int) {
  std::string path = arg_text(vm, "rmfile", args[0]);
  if (unlink(path.c_str()) != 0) os_error(vm, "rmfile", "cannot delete", path);
  return NIL;
}

// (%chmod path mode): sets path's permission bits (0 to #o7777, given as
// a number: 384 is 0600); app.arc makes its files of secrets its owner's
// alone with it.
Value bi_chmod(VM& vm, Value* args, int) {
  std::string path = arg_text(vm, "%chmod", args[0]);
  int64_t mode = arg_index(vm, "%chmod", args[1]);
  if (mode > 07777) type_error(vm, "%chmod", "a mode from 0 to 4095", args[1]);
  if (chmod(path.c_str(), mode_t(mode)) != 0)
    os_error(vm, "%chmod", "cannot change the mode of", path);
  return NIL;
}

Value bi_mvfile(VM& vm, Value* args, int) {
  std::string from = arg_text(vm, "mvfile", args[0]);
  std::string to = arg_text(vm, "mvfile", args[1]);
  if (rename(from.c_str(), to.c_str()) != 0)
    os_error(vm, "mvfile", "cannot rename", from + " to " + to);
  return NIL;
}

// fsync of a file or folder by name: on Linux it flushes the inode's dirty
// pages whichever descriptor wrote them.
void sync_path(VM& vm, const char* fn, const std::string& path, bool dir) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | (dir ? O_DIRECTORY : 0));
  if (fd < 0) os_error(vm, fn, "cannot open", path);
  int rc;
  do rc = fsync(fd);
  while (rc != 0 && errno == EINTR);
  int err = errno;
  close_fd(vm, fd);
  errno = err;
  if (rc != 0) os_error(vm, fn, "cannot sync", path);
}

// (%durable-mvfile from to): the last step of an atomic, durable write
// (writefile): from's data reaches the disk, then the rename, then the
// folder's entry, so after a crash `to` holds the old file or the whole
// new one, and a caller that returned has its write on disk.
Value bi_durable_mvfile(VM& vm, Value* args, int) {
  const char* fn = "%durable-mvfile";
  std::string from = arg_text(vm, fn, args[0]);
  std::string to = arg_text(vm, fn, args[1]);
  sync_path(vm, fn, from, false);
  if (rename(from.c_str(), to.c_str()) != 0) os_error(vm, fn, "cannot rename", from + " to " + to);
  size_t slash = to.rfind('/');
  sync_path(vm, fn,
            slash == std::string::npos ? "."
            : slash == 0               ? "/"
                                       : to.substr(0, slash),
            true);
  return NIL;
}

// ---- processes ----

// Copies everything readable from fd to out, then closes fd.
void copy_to_port(VM& vm, int fd, PortImpl* out) {
  char buf[16384];
  for (;;) {
    wait_fd(vm, fd, false);  // the other threads run meanwhile
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out->write_bytes(buf, size_t(n));
  }
}

// The child's stdout goes through a pipe into the current Arc output port, so
// (tostring (system ...)) captures it; its stderr is the process's own.
Value bi_system(VM& vm, Value* args, int) {
  std::string cmd = arg_text(vm, "system", args[0]);
  PortImpl* out = arg_output(vm, "system", vm.out_port());
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) os_error(vm, "system", "cannot make a pipe for", cmd);
  flush_quietly(vm.err_port());  // keep earlier error output ahead of the child's
  int pid = spawn_shell(cmd, fds[1]);
  int err = errno;
  ::close(fds[1]);  // so the read end sees end of file when the child exits
  if (pid < 0) {
    ::close(fds[0]);
    throw_error(vm, std::string("system: cannot run the shell: ") + strerror(err), {args[0]});
  }
  // Waiting (for output, for the child) lets other threads run, so it must
  // not happen inside a catch block: the C++ runtime's record of the
  // exceptions being handled belongs to the OS thread, not to ours.
  std::exception_ptr failed;
  try {
    copy_to_port(vm, fds[0], out);
  } catch (...) {
    failed = std::current_exception();
  }
  ::close(fds[0]);
  wait_child(vm, pid);
  if (failed) std::rethrow_exception(failed);
  if (!vm.declarations().explicit_flush) out->flush();
  return NIL;
}

// ---- pipe-from ----

// The command's whole output goes to an unlinked temporary file first (as
// Arc 3.1 does), so the port reads a finished file, never a live process.
Value bi_pipe_from(VM& vm, Value* args, int) {
  std::string cmd = arg_text(vm, "pipe-from", args[0]);
  const char* dir = getenv("TMPDIR");
  std::string path = std::string(dir && *dir ? dir : "/tmp") + "/arcana-pipe-XXXXXX";
  int fd = mkostemp(path.data(), O_CLOEXEC);
  if (fd < 0)
    throw_error(vm, std::string("pipe-from: cannot create a temporary file: ") + strerror(errno));
  unlink(path.c_str());
  if (is_output_port(vm.err_port()) && !port_impl(vm.err_port())->closed)
    port_impl(vm.err_port())->flush();
  int pid = spawn_shell(cmd, fd);
  if (pid < 0) {
    int err = errno;
    ::close(fd);
    throw_error(vm, std::string("pipe-from: cannot run the shell: ") + strerror(err), {args[0]});
  }
  wait_child(vm, pid);
  lseek(fd, 0, SEEK_SET);
  return make_port(vm, make_fd_input(vm, fd, "pipe-from", true));
}

// Returns setuid's result (0 or -1) rather than raising: srv.arc calls
// (setuid 2) unconditionally and must keep running when not root.
Value bi_setuid(VM& vm, Value* args, int) {
  int64_t uid = arg_index(vm, "setuid", args[0]);
  return Value::fixnum(setuid(uid_t(uid)));
}

const BuiltinDef kOsBuiltins[] = {
    {"infile", bi_infile, 1, 1, "open a file for reading"},
    {"outfile", bi_outfile, 1, 2, "open a file for writing; mode 'append appends"},
    {"pipe-from", bi_pipe_from, 1, 1, "an input port on the output of a shell command"},
    {"dir", bi_dir, 1, 1, "names of the entries of a directory, sorted"},
    {"file-exists", bi_file_exists, 1, 1, "path if it names a regular file, else nil"},
    {"dir-exists", bi_dir_exists, 1, 1, "path if it names a directory, else nil"},
    {"rmfile", bi_rmfile, 1, 1, "delete a file; returns nil"},
    {"mvfile", bi_mvfile, 2, 2, "rename a file, replacing the target; returns nil"},
    {"%chmod", bi_chmod, 2, 2, "(%chmod path mode): set a file's permission bits"},
    {"%durable-mvfile", bi_durable_mvfile, 2, 2,
     "fsync a file, rename it over another, fsync the folder"},
    {"system", bi_system, 1, 1, "run a shell command, its output to the current output port"},
    {"setuid", bi_setuid, 1, 1, "the Unix setuid call; returns its result"},
};

}  // namespace

void register_os_builtins(VM& vm) { define_builtins(vm, kOsBuiltins); }

}  // namespace vm
