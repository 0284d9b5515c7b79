/*
 * tree_io: the few system calls the tree reader (electron/main/host/files/tree-reader.ts) needs
 * and Node's fs does not offer: opening a folder or a file *relative to an open folder* (openat)
 * without following links, listing an open folder, and reading a file's first window with one
 * crossing per step. Linux only; elsewhere the module says `supported: false` and the reader uses
 * node:fs with its per-file proof.
 *
 * Why openat: a file opened as openat(folder, name, O_NOFOLLOW) is an entry of that very folder,
 * whatever happens to the path meanwhile; with every folder opened the same way from a proven
 * start (and proven again by the kernel's own name for it), no per-file path resolution or proof
 * is needed. That proof (readlink of /proc/self/fd/N) was a third of the reader's system-call time.
 * See docs/2026-12-02-search-openat.md.
 *
 * Every function is synchronous, keeps no state between calls (worker threads call it at once),
 * and reports failures as a negative errno (or one of the NOT_* codes below), never by throwing,
 * except for arguments of the wrong type (a programming error).
 */
#include <node_api.h>

#if defined(__linux__)
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Failures that are not an errno (errno values are small positive numbers). */
#define NOT_PROVEN (-1000000)  /* the kernel's name for the opened folder is not the expected path */
#define NO_PROOF (-1000001)    /* the kernel cannot name it (no /proc): the caller must not use this module */
#define NOT_REGULAR (-1000002) /* opened, but not a regular file (FIFO, device, socket, folder) */

#define PATH_BYTES 4096
#define NAME_BYTES 256

static napi_value number(napi_env env, double value) {
  napi_value out;
  napi_create_double(env, value, &out);
  return out;
}

static int arg_int(napi_env env, napi_value value, int32_t* out) {
  if (napi_get_value_int32(env, value, out) == napi_ok) return 1;
  napi_throw_type_error(env, NULL, "tree_io: expected an integer");
  return 0;
}

/*
 * Copies a JavaScript string into `buf` as UTF-8. Returns its length, or -1 after throwing (not a
 * string), or -ENAMETOOLONG / -EINVAL (an embedded NUL would cut the name short in the kernel).
 */
static long arg_string(napi_env env, napi_value value, char* buf, size_t size) {
  size_t length = 0;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &length) != napi_ok) {
    napi_throw_type_error(env, NULL, "tree_io: expected a string");
    return -1;
  }
  if (length >= size) return -ENAMETOOLONG;
  napi_get_value_string_utf8(env, value, buf, size, &length);
  if (strlen(buf) != length) return -EINVAL;
  return (long)length;
}

/* A single entry name: not empty, not "." or "..", no slash. Anything else could leave the folder. */
static int is_plain_name(const char* name) {
  if (name[0] == '\0' || strchr(name, '/') != NULL) return 0;
  return !(name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')));
}

#define NAME_UNKNOWN (-1)   /* kernel_name: no /proc */
#define NAME_TRUNCATED (-2) /* kernel_name: longer than the buffer */

/* The kernel's own name for an open descriptor (readlink of /proc/self/fd/N), not NUL-terminated. */
static ssize_t kernel_name(int fd, char* out, size_t size) {
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
  ssize_t length = readlink(proc, out, size);
  if (length < 0) return NAME_UNKNOWN;
  return (size_t)length == size ? NAME_TRUNCATED : length;
}

/*
 * Fetches exactly `count` arguments; false (with a TypeError thrown) when fewer were given.
 * Every function starts with it, then reads its first argument as an integer.
 */
static int args(napi_env env, napi_callback_info info, napi_value* argv, size_t count, int32_t* first) {
  size_t argc = count;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < count) {
    napi_throw_type_error(env, NULL, "tree_io: too few arguments");
    return 0;
  }
  return arg_int(env, argv[0], first);
}

/* 0 when the kernel names `fd` exactly `expected`, NOT_PROVEN when it names something else, NO_PROOF when it cannot say. */
static int prove(int fd, const char* expected, size_t expected_length) {
  char actual[PATH_BYTES];
  ssize_t length = kernel_name(fd, actual, sizeof actual);
  if (length == NAME_UNKNOWN) return NO_PROOF;
  if (length == NAME_TRUNCATED) return NOT_PROVEN; /* cannot be compared */
  if ((size_t)length != expected_length || memcmp(actual, expected, expected_length) != 0) return NOT_PROVEN;
  return 0;
}

/*
 * openFolder(parentFd, name, path) -> fd | negative code.
 * With parentFd >= 0: openat(parentFd, name) — `name` one entry of the open parent; with -1: open(path).
 * Never follows a link in the last step (O_NOFOLLOW; intermediate steps exist only for -1, whose
 * path the caller checked in full). The result must be the folder the kernel calls `path`.
 */
static napi_value open_folder(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  int32_t parent;
  char name[NAME_BYTES];
  char path[PATH_BYTES];
  if (!args(env, info, argv, 3, &parent)) return NULL;
  long name_length = arg_string(env, argv[1], name, sizeof name);
  if (name_length == -1) return NULL;
  long path_length = arg_string(env, argv[2], path, sizeof path);
  if (path_length == -1) return NULL;
  if (name_length < 0) return number(env, (double)name_length);
  if (path_length < 0) return number(env, (double)path_length);
  if (parent >= 0 && !is_plain_name(name)) return number(env, -EINVAL);
  if (parent < 0 && path[0] != '/') return number(env, -EINVAL);

  const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
  int fd = parent >= 0 ? openat(parent, name, flags) : open(path, flags);
  if (fd < 0) return number(env, -errno);
  int proof = prove(fd, path, (size_t)path_length);
  if (proof != 0) {
    close(fd);
    return number(env, proof);
  }
  return number(env, fd);
}

/* Dirent type as one letter: f(ile), d(irectory), l(ink), o(ther: FIFO, device, socket), u(nknown). */
static char type_letter(unsigned char type) {
  switch (type) {
    case DT_REG: return 'f';
    case DT_DIR: return 'd';
    case DT_LNK: return 'l';
    case DT_UNKNOWN: return 'u';
    default: return 'o';
  }
}

/* The fields of struct linux_dirent64 (the kernel's record; glibc declares no type for it). */
struct dirent64_record {
  unsigned long long d_ino;
  long long d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

/*
 * listFolder(fd) -> string | negative errno: every entry but "." and "..", each as its type letter,
 * its name and a NUL. Reads with getdents64 on `fd` itself (no duplicate and no DIR: opendir's
 * dup, fstat and fcntl calls were half the system calls of a folder); the position moves, so a
 * folder is listed once, right after it is opened.
 */
static napi_value list_folder(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  int32_t fd;
  if (!args(env, info, argv, 1, &fd)) return NULL;
  char records[32768];
  size_t size = 16384, used = 0;
  char* text = malloc(size);
  int error = text == NULL ? ENOMEM : 0;
  while (error == 0) {
    long got = syscall(SYS_getdents64, fd, records, sizeof records);
    if (got < 0) {
      error = errno;
      break;
    }
    if (got == 0) break;
    for (long at = 0; at < got && error == 0;) {
      const struct dirent64_record* entry = (const struct dirent64_record*)(records + at);
      at += entry->d_reclen;
      const char* n = entry->d_name;
      if (n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0'))) continue;
      size_t length = strlen(n);
      if (used + length + 2 > size) {
        size_t bigger = size * 2 + length + 2;
        char* grown = realloc(text, bigger);
        if (grown == NULL) {
          error = ENOMEM;
          break;
        }
        text = grown;
        size = bigger;
      }
      text[used++] = type_letter(entry->d_type);
      memcpy(text + used, n, length);
      used += length;
      text[used++] = '\0';
    }
  }
  napi_value out = NULL;
  if (error != 0) out = number(env, -error);
  else if (napi_create_string_utf8(env, text, used, &out) != napi_ok) out = number(env, -ENOMEM);
  free(text);
  return out;
}

/*
 * openFile(folderFd, name, sizeOut) -> fd | negative code. openat without following a link and
 * without blocking on a FIFO; anything but a regular file is closed again (NOT_REGULAR). Its size
 * (fstat) goes to sizeOut[0], a Float64Array.
 */
static napi_value open_file(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  int32_t folder;
  char name[NAME_BYTES];
  if (!args(env, info, argv, 3, &folder)) return NULL;
  long name_length = arg_string(env, argv[1], name, sizeof name);
  if (name_length == -1) return NULL;
  napi_typedarray_type type;
  size_t count = 0;
  void* data = NULL;
  if (napi_get_typedarray_info(env, argv[2], &type, &count, &data, NULL, NULL) != napi_ok || type != napi_float64_array || count < 1) {
    napi_throw_type_error(env, NULL, "tree_io: sizeOut must be a Float64Array");
    return NULL;
  }
  if (name_length < 0) return number(env, (double)name_length);
  if (folder < 0 || !is_plain_name(name)) return number(env, -EINVAL);

  int fd = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return number(env, -errno);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int error = errno;
    close(fd);
    return number(env, -error);
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return number(env, NOT_REGULAR);
  }
  ((double*)data)[0] = (double)st.st_size;
  return number(env, fd);
}

/*
 * readClose(fd, view, offset, length) -> bytes read | negative errno. Reads from the file's start
 * into view[offset, offset + length) until full or at its end, then closes `fd` whatever happened.
 */
static napi_value read_close(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  int32_t fd, offset, length;
  if (!args(env, info, argv, 4, &fd)) return NULL;
  napi_typedarray_type type;
  size_t count = 0;
  void* data = NULL;
  int typed_ok = napi_get_typedarray_info(env, argv[1], &type, &count, &data, NULL, NULL) == napi_ok && type == napi_uint8_array;
  if (!typed_ok || !arg_int(env, argv[2], &offset) || !arg_int(env, argv[3], &length)) {
    if (fd >= 0) close(fd);
    if (typed_ok) return NULL; /* arg_int threw */
    napi_throw_type_error(env, NULL, "tree_io: view must be a Uint8Array");
    return NULL;
  }
  if (offset < 0 || length < 0 || (size_t)offset + (size_t)length > count) {
    close(fd);
    napi_throw_range_error(env, NULL, "tree_io: the window does not fit the view");
    return NULL;
  }
  char* target = (char*)data + offset;
  size_t filled = 0;
  int error = 0;
  while (filled < (size_t)length) {
    ssize_t n = pread(fd, target + filled, (size_t)length - filled, (off_t)filled);
    if (n < 0) {
      if (errno == EINTR) continue;
      error = errno;
      break;
    }
    if (n == 0) break; /* shrank since it was opened */
    filled += (size_t)n;
  }
  close(fd);
  return number(env, error != 0 ? -error : (double)filled);
}

/*
 * nameOf(fd) -> string | negative code: the kernel's own name for an open descriptor, now (the
 * reader proves its open folders again after reading from them, see tree-reader-openat.ts).
 */
static napi_value name_of(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  int32_t fd;
  if (!args(env, info, argv, 1, &fd)) return NULL;
  char actual[PATH_BYTES];
  ssize_t length = kernel_name(fd, actual, sizeof actual);
  if (length == NAME_UNKNOWN) return number(env, NO_PROOF);
  if (length == NAME_TRUNCATED) return number(env, -ENAMETOOLONG);
  napi_value out;
  napi_create_string_utf8(env, actual, (size_t)length, &out);
  return out;
}

/* closeFd(fd): for folders the reader leaves (files are closed by readClose). */
static napi_value close_fd(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  int32_t fd;
  if (!args(env, info, argv, 1, &fd)) return NULL;
  return number(env, fd >= 0 && close(fd) != 0 ? -errno : 0);
}

static void export_function(napi_env env, napi_value exports, const char* name, napi_callback callback) {
  napi_value fn;
  napi_create_function(env, name, NAPI_AUTO_LENGTH, callback, NULL, &fn);
  napi_set_named_property(env, exports, name, fn);
}

NAPI_MODULE_INIT() {
  napi_value flag;
  napi_get_boolean(env, 1, &flag);
  napi_set_named_property(env, exports, "supported", flag);
  export_function(env, exports, "openFolder", open_folder);
  export_function(env, exports, "listFolder", list_folder);
  export_function(env, exports, "openFile", open_file);
  export_function(env, exports, "readClose", read_close);
  export_function(env, exports, "nameOf", name_of);
  export_function(env, exports, "closeFd", close_fd);
  napi_set_named_property(env, exports, "NOT_PROVEN", number(env, NOT_PROVEN));
  napi_set_named_property(env, exports, "NO_PROOF", number(env, NO_PROOF));
  napi_set_named_property(env, exports, "NOT_REGULAR", number(env, NOT_REGULAR));
  return exports;
}

#else /* not Linux: the reader keeps to node:fs */

NAPI_MODULE_INIT() {
  napi_value flag;
  napi_get_boolean(env, 0, &flag);
  napi_set_named_property(env, exports, "supported", flag);
  return exports;
}

#endif
