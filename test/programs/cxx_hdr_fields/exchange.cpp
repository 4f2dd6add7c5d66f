// Second source of cxx_hdr_fields: exchanges with types from the header's inline builders.
//  - faces_by_helper: the six faces of the block as four arrays of datatypes filled in one loop
//    over the axes by the header's output-parameter builder (the high layers' index from a
//    constexpr function of the loop variable), posted by MPI_Irecv/MPI_Isend indexed by the
//    axis: the low faces into a C array of requests through a running counter (&rq[n++]), the
//    high faces into a std::array through one (&rq_hi[m++]) with tags from a constexpr function;
//  - persistent_steps: the x and y faces built with constant arguments, persistent requests in a
//    std::array, MPI_Startall/MPI_Waitall for several steps;
//  - lines_to_root: the first interior x line of every rank goes to rank 0, sent through the
//    header's inline variable fx::g_xline (built in main.cpp), received with a type from the
//    header's factory.
#include "fields.hpp"

namespace fx {
int faces_by_helper(std::vector<double> &u, const Topo &t) {
  MPI_Datatype send_lo[3], send_hi[3], recv_lo[3], recv_hi[3];
  for (int a = 0; a < 3; ++a) {
    face(&send_lo[a], a, 1);
    face(&send_hi[a], a, extent(a));
    face(&recv_lo[a], a, 0);
    face(&recv_hi[a], a, extent(a) + 1);
  }
  // The low faces: requests in a C array through a running counter, tags spelled inline.
  MPI_Request rq[6];
  int n = 0;
  for (int a = 0; a < 3; ++a) {
    MPI_Irecv(u.data(), 1, recv_lo[a], t.lo[a], 10 + 2 * a + 1, t.cart, &rq[n++]);
    MPI_Isend(u.data(), 1, send_lo[a], t.lo[a], 10 + 2 * a, t.cart, &rq[n++]);
  }
  // The high faces: a std::array of requests, tags from the header's constexpr function.
  std::array<MPI_Request, 6> rq_hi;
  int m = 0;
  for (int a = 0; a < 3; ++a) {
    MPI_Irecv(u.data(), 1, recv_hi[a], t.hi[a], tag(a, 0), t.cart, &rq_hi[m++]);
    MPI_Isend(u.data(), 1, send_hi[a], t.hi[a], tag(a, 1), t.cart, &rq_hi[m++]);
  }
  MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
  MPI_Waitall(m, rq_hi.data(), MPI_STATUSES_IGNORE);
  for (int a = 0; a < 3; ++a) {
    MPI_Type_free(&send_lo[a]);
    MPI_Type_free(&send_hi[a]);
    MPI_Type_free(&recv_lo[a]);
    MPI_Type_free(&recv_hi[a]);
  }
  return 0;
}

int persistent_steps(std::vector<double> &u, const Topo &t, int first, int nsteps) {
  MPI_Datatype xs_lo, xs_hi, xr_lo, xr_hi, ys_lo, ys_hi, yr_lo, yr_hi;
  face(&xs_lo, X, 1);
  face(&xs_hi, X, NX);
  face(&xr_lo, X, 0);
  face(&xr_hi, X, NX + 1);
  face(&ys_lo, Y, 1);
  face(&ys_hi, Y, NY);
  face(&yr_lo, Y, 0);
  face(&yr_hi, Y, NY + 1);
  std::array<MPI_Request, 8> pr;
  double *base = u.data();
  MPI_Recv_init(base, 1, xr_lo, t.lo[X], tag(X, 1), t.cart, &pr[0]);
  MPI_Recv_init(base, 1, xr_hi, t.hi[X], tag(X, 0), t.cart, &pr[1]);
  MPI_Recv_init(base, 1, yr_lo, t.lo[Y], tag(Y, 1), t.cart, &pr[2]);
  MPI_Recv_init(base, 1, yr_hi, t.hi[Y], tag(Y, 0), t.cart, &pr[3]);
  MPI_Send_init(base, 1, xs_lo, t.lo[X], tag(X, 0), t.cart, &pr[4]);
  MPI_Send_init(base, 1, xs_hi, t.hi[X], tag(X, 1), t.cart, &pr[5]);
  MPI_Send_init(base, 1, ys_lo, t.lo[Y], tag(Y, 0), t.cart, &pr[6]);
  MPI_Send_init(base, 1, ys_hi, t.hi[Y], tag(Y, 1), t.cart, &pr[7]);
  int bad = 0;
  long long sum = 0;
  for (int s = first; s < first + nsteps; ++s) {
    fill(u, t, s);
    MPI_Startall(static_cast<int>(pr.size()), pr.data());
    MPI_Waitall(static_cast<int>(pr.size()), pr.data(), MPI_STATUSES_IGNORE);
    bad += check(u, t, s, 0x3cu, sum); // y and x faces, both sides
  }
  for (MPI_Request &r : pr) MPI_Request_free(&r);
  for (MPI_Datatype *d : {&xs_lo, &xs_hi, &xr_lo, &xr_hi, &ys_lo, &ys_hi, &yr_lo, &yr_hi})
    MPI_Type_free(d);
  return report(t, "persistent x/y faces", bad, sum);
}

int lines_to_root(const std::vector<double> &u, const Topo &t, int step) {
  int bad = 0;
  if (t.rank != 0) {
    MPI_Send(&u[at(1, 1, 1)], 1, g_xline, 0, 90, t.cart);
    return 0;
  }
  MPI_Datatype line = x_line();
  std::vector<double> in(NX, -1.0);
  for (int r = 1; r < t.size; ++r) {
    MPI_Recv(in.data(), 1, line, r, 90, t.cart, MPI_STATUS_IGNORE);
    int c[3];
    MPI_Cart_coords(t.cart, r, 3, c);
    for (int x = 0; x < NX; ++x)
      bad += in[x] != value(step, c[0] * NZ, c[1] * NY, c[2] * NX + x);
  }
  MPI_Type_free(&line);
  return bad;
}
} // namespace fx
