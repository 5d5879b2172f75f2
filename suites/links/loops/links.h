/* links.h: the links suite's timed loop: one measurement of one pair of
 * processes (links.c), on the binding's control.h. */
#ifndef BEFF_LINKS_H
#define BEFF_LINKS_H

#include "control.h"

/* The measurements of a pair, in the order of loops.Measure (a Go test
 * checks the names). */
enum links_meas { LINKS_LAT, LINKS_FORTH, LINKS_BACK, LINKS_BOTH, LINKS_NMEAS };
extern const char *const links_meas_names[LINKS_NMEAS];

/* LINKS_BLOCKS is the most blocks a latency's ping-pongs are timed in
 * (LINKS_BLOCKS + 1 when reps is a multiple of the block). */
enum { LINKS_BLOCKS = 64 };

/* links_pair runs measurement meas of the pair of this process and partner
 * in comm: reps exchanges (ping-pongs of len bytes, or messages of len
 * bytes each way), fewer when the lower member's clock (the sender's for
 * LINKS_BACK) passes cap seconds (read after every block of ping-pongs,
 * every bandwidth message): it marks the last message, so both
 * sides stop after the same one. lower says whether this process is the
 * lower member (it starts the ping-pongs; LINKS_FORTH sends from it,
 * LINKS_BACK to it). On the lower member *seconds is the measurement's
 * time (for LINKS_BACK the higher member's, sent over) and *count the
 * exchanges; for LINKS_LAT *typical is the median over its blocks (of at
 * least 16 ping-pongs, at most LINKS_BLOCKS blocks) of a ping-pong's
 * time, which a few ping-pongs that the system held up do not move (0
 * elsewhere); on both *faults counts the received messages whose stamps
 * were wrong. sbuf and rbuf hold len bytes each. */
int links_pair(MPI_Fint comm, int partner, int lower, int meas, int64_t len, int reps, double cap,
               unsigned char *sbuf, unsigned char *rbuf, double *seconds, int *count, double *typical, int64_t *faults);

/* LINKS_WINDOW is the most messages of a window of links_multi. */
enum { LINKS_WINDOW = 64 };

/* links_multi runs one of the process pairs of two nodes that measure at
 * once (osu_mbw_mr's pattern): windows of window messages of len bytes,
 * each window posted at once (MPI_Isend, MPI_Irecv) and completed
 * together; with both == 0 the lower process sends and the higher
 * receives, acknowledging each window with an empty message, with both
 * the two send and receive at once. Windows go on until reps windows are
 * made or the lower one's clock passes cap (read after each window): it
 * marks the last message of its last window, so both stop after the same
 * window. On both *seconds is the time from the call to the last window's
 * end (the sender's: to its acknowledgement) and *count the windows;
 * *faults counts the received messages whose stamps were wrong. sbuf
 * holds len bytes, rbuf window * len. */
int links_multi(MPI_Fint comm, int partner, int lower, int both, int64_t len, int window, int reps, double cap,
                unsigned char *sbuf, unsigned char *rbuf, double *seconds, int *count, int64_t *faults);

/* links_share hands the lower member's n values of the pair's
 * measurements to the higher member: both then hold every link of theirs. */
int links_share(MPI_Fint comm, int partner, int lower, double *v, int n);

#endif
