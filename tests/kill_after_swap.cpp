// A library tests/faults_test.cpp preloads into statespace (LD_PRELOAD): after a
// bundle has been swapped into place (renameat2 with RENAME_EXCHANGE), the first
// call that removes a file or folder or syncs one kills the process with SIGKILL.
// That is the moment between the swap and the removal of the earlier bundle; the
// renames that put the folder's tables in place pass.
#include <dlfcn.h>
#include <signal.h>

namespace {

constexpr unsigned kRenameExchange = 1U << 1;  // linux/fs.h's RENAME_EXCHANGE
bool swapped = false;

template <class F>
F next_definition(const char* name) {
  return reinterpret_cast<F>(::dlsym(RTLD_NEXT, name));
}

void kill_if_swapped() {
  if (swapped) ::raise(SIGKILL);
}

}  // namespace

extern "C" {

int renameat2(int from_dir, const char* from, int to_dir, const char* to, unsigned flags) {
  static const auto real = next_definition<int (*)(int, const char*, int, const char*, unsigned)>("renameat2");
  const int r = real(from_dir, from, to_dir, to, flags);
  if (r == 0 && (flags & kRenameExchange) != 0) swapped = true;
  return r;
}

int fsync(int fd) {
  kill_if_swapped();
  static const auto real = next_definition<int (*)(int)>("fsync");
  return real(fd);
}

int remove(const char* path) {
  kill_if_swapped();
  static const auto real = next_definition<int (*)(const char*)>("remove");
  return real(path);
}

int unlink(const char* path) {
  kill_if_swapped();
  static const auto real = next_definition<int (*)(const char*)>("unlink");
  return real(path);
}

int unlinkat(int dir, const char* path, int flags) {
  kill_if_swapped();
  static const auto real = next_definition<int (*)(int, const char*, int)>("unlinkat");
  return real(dir, path, flags);
}

int rmdir(const char* path) {
  kill_if_swapped();
  static const auto real = next_definition<int (*)(const char*)>("rmdir");
  return real(path);
}

}  // extern "C"
