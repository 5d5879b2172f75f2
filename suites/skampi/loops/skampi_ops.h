/* skampi_ops.h: the length of the SKaMPI suite's table of operations and
 * the function of each row (defined in the file of its family, skampi_*.c).
 * WRITTEN FROM suites/skampi/ops.go: do not edit; BEFF_UPDATE=1 go test
 * ./suites/skampi rewrites it. */
#ifndef SKAMPI_OPS_H
#define SKAMPI_OPS_H

#define SKAMPI_NOPS 118

typedef struct sk_ctx ctx;

int sk_op_send_recv(ctx *c);
int sk_op_send_recv_anytag(ctx *c);
int sk_op_send_irecv(ctx *c);
int sk_op_send_iprobe_recv(ctx *c);
int sk_op_ssend_recv(ctx *c);
int sk_op_isend_recv(ctx *c);
int sk_op_issend_recv(ctx *c);
int sk_op_bsend_recv(ctx *c);
int sk_op_sendrecv(ctx *c);
int sk_op_sendrecv_replace(ctx *c);
int sk_op_barrier(ctx *c);
int sk_op_bcast(ctx *c);
int sk_op_reduce(ctx *c);
int sk_op_allreduce(ctx *c);
int sk_op_reduce_scatter_block(ctx *c);
int sk_op_scan(ctx *c);
int sk_op_exscan(ctx *c);
int sk_op_gather(ctx *c);
int sk_op_gatherv(ctx *c);
int sk_op_scatter(ctx *c);
int sk_op_scatterv(ctx *c);
int sk_op_allgather(ctx *c);
int sk_op_allgatherv(ctx *c);
int sk_op_alltoall(ctx *c);
int sk_op_alltoallv(ctx *c);
int sk_op_comm_split(ctx *c);
int sk_op_comm_dup(ctx *c);
int sk_op_memcpy(ctx *c);
int sk_op_bcast_sendrecv(ctx *c);
int sk_op_gather_sendrecv(ctx *c);
int sk_op_gather_irecv(ctx *c);
int sk_op_allreduce_reduce_bcast(ctx *c);
int sk_op_alltoall_isend_irecv(ctx *c);
int sk_op_mw_wait(ctx *c);
int sk_op_mw_waitany(ctx *c);
int sk_op_mw_recv_any(ctx *c);
int sk_op_mw_send(ctx *c);
int sk_op_mw_ssend(ctx *c);
int sk_op_mw_isend(ctx *c);
int sk_op_mw_bsend(ctx *c);
int sk_op_wtime(ctx *c);
int sk_op_comm_rank(ctx *c);
int sk_op_comm_size(ctx *c);
int sk_op_iprobe(ctx *c);
int sk_op_improbe(ctx *c);
int sk_op_buffer_attach(ctx *c);
int sk_op_type_create(ctx *c);
int sk_op_put(ctx *c);
int sk_op_get(ctx *c);
int sk_op_acc_sum(ctx *c);
int sk_op_acc_replace(ctx *c);
int sk_op_acc_max(ctx *c);
int sk_op_get_acc(ctx *c);
int sk_op_fetch_and_op(ctx *c);
int sk_op_compare_and_swap(ctx *c);
int sk_op_put_bw(ctx *c);
int sk_op_get_bw(ctx *c);
int sk_op_win_fence(ctx *c);
int sk_op_win_pscw(ctx *c);
int sk_op_win_lock(ctx *c);
int sk_op_win_fence_delayed(ctx *c);
int sk_op_win_pscw_delayed(ctx *c);
int sk_op_win_lock_delayed(ctx *c);
int sk_op_put_all(ctx *c);
int sk_op_reduce_scatter(ctx *c);
int sk_op_alltoallw(ctx *c);
int sk_op_send_recv_persistent(ctx *c);
int sk_op_isendrecv(ctx *c);
int sk_op_isendrecv_replace(ctx *c);
int sk_op_neighbor_allgather(ctx *c);
int sk_op_neighbor_allgatherv(ctx *c);
int sk_op_neighbor_alltoall(ctx *c);
int sk_op_neighbor_alltoallv(ctx *c);
int sk_op_neighbor_alltoallw(ctx *c);
int sk_op_neighbor_allgather_isend_irecv(ctx *c);
int sk_op_neighbor_alltoall_isend_irecv(ctx *c);
int sk_op_psend_precv(ctx *c);
int sk_op_send_recv_c(ctx *c);

#endif
