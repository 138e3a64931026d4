/* Which standard streams were closed when the rhoscope program started.
 *
 * Rust's runtime reopens a closed descriptor 0, 1 or 2 on /dev/null before main runs, so
 * `rhoscope estimate panel.csv >&-` would look like `> /dev/null` and its lost output like a
 * success. This constructor runs before that runtime (it is linked into the program only,
 * never into the library or the Python extension) and records the closed descriptors in
 * RHOSCOPE_CLOSED_STREAMS (for example "1"), which the command line reads at start; it unsets
 * the variable when every stream is open, so a child rhoscope never inherits a stale answer. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>

__attribute__((constructor)) static void rhoscope_note_closed_streams(void) {
    char closed[4] = {0};
    int n = 0;
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
            closed[n++] = (char)('0' + fd);
        }
    }
    if (n > 0) {
        setenv("RHOSCOPE_CLOSED_STREAMS", closed, 1);
    } else {
        unsetenv("RHOSCOPE_CLOSED_STREAMS");
    }
}
