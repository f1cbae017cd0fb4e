! A Fortran consumer of an installed sgpu: `use sgpu`, built with the installed module and
! `pkg-config --libs sgpu`. Self-checking; exit status 0 when the results agree.
program consumer
  use, intrinsic :: iso_c_binding
  use sgpu
  implicit none
  integer, parameter :: n = 3, nb = 2
  real(c_double) :: a(n, n, nb), wr(n, nb), wi(n, nb), w(2, nb)
  complex(c_double_complex) :: h(2, 2, nb)
  integer(c_int) :: info(nb), st, backend, devs(4), ndev
  type(c_ptr) :: ctx
  integer :: b, bad
  bad = 0
  ! A context of our own, forced onto the CPU backend, with two threads.
  if (sgpu_context_create(ctx) /= 0) stop 1
  if (sgpu_context_set_backend(ctx, SGPU_BACKEND_CPU) /= 0) bad = bad + 1
  if (sgpu_context_set_num_threads(ctx, 2) /= 0) bad = bad + 1
  if (sgpu_context_get_backend(ctx, backend) /= 0 .or. backend /= SGPU_BACKEND_CPU) bad = bad + 1
  ! Device list and device-memory limit (used by the GPU backend; the CPU backend ignores them).
  if (sgpu_context_set_devices(ctx, [0_c_int, 1_c_int], 2) /= 0) bad = bad + 1
  if (sgpu_context_get_devices(ctx, devs, 4, ndev) /= 0 .or. ndev /= 2 .or. devs(2) /= 1) bad = bad + 1
  if (sgpu_context_set_device_memory_limit(ctx, 268435456_c_size_t) /= 0) bad = bad + 1
  ! Upper triangular matrices: the eigenvalues are the diagonal (dgeev returns them in order).
  do b = 1, nb
    a(:, :, b) = reshape([1d0*b, 0d0, 0d0, 5d0, 2d0*b, 0d0, 7d0, 8d0, 3d0*b], [n, n])
  end do
  ! Eigenvalues only: VL and VR are omitted (the arguments after them named).
  st = sgpu_dgeev_batched(c_null_ptr, 'N', 'N', n, a, n, int(n*n, c_int64_t), wr, wi, int(n, c_int64_t), &
                          ldvl=1, stride_vl=0_c_int64_t, ldvr=1, stride_vr=0_c_int64_t, info=info, &
                          batch=int(nb, c_int64_t))
  if (st /= 0) then
    print *, 'dgeev: ', sgpu_strerror(st)
    stop 1
  end if
  do b = 1, nb
    if (any(abs(wr(:, b) - [1d0*b, 2d0*b, 3d0*b]) > 1d-12) .or. any(wi(:, b) /= 0d0)) bad = bad + 1
  end do
  ! dhseqr on the same (triangular, so Hessenberg) matrices, Schur vectors not wanted: Z omitted.
  do b = 1, nb
    a(:, :, b) = reshape([1d0*b, 0d0, 0d0, 5d0, 2d0*b, 0d0, 7d0, 8d0, 3d0*b], [n, n])
  end do
  st = sgpu_dhseqr_batched(ctx, 'E', 'N', n, 1, n, a, n, int(n*n, c_int64_t), wr, wi, int(n, c_int64_t), &
                           ldz=1, stride_z=0_c_int64_t, info=info, batch=int(nb, c_int64_t))
  if (st /= 0) then
    print *, 'dhseqr: ', sgpu_strerror(st)
    stop 1
  end if
  do b = 1, nb
    if (any(abs(wr(:, b) - [1d0*b, 2d0*b, 3d0*b]) > 1d-12 * b)) bad = bad + 1
  end do
  ! [[2, i], [-i, 2]] has eigenvalues 1 and 3.
  do b = 1, nb
    h(:, :, b) = reshape([(2d0, 0d0), (0d0, -1d0), (0d0, 1d0), (2d0, 0d0)], [2, 2])
  end do
  st = sgpu_zheev_batched(ctx, 'V', 'U', 2, h, 2, 4_c_int64_t, w, 2_c_int64_t, info, int(nb, c_int64_t))
  if (st /= 0) then
    print *, 'zheev: ', sgpu_strerror(st)
    stop 1
  end if
  do b = 1, nb
    if (abs(w(1, b) - 1d0) > 1d-12 .or. abs(w(2, b) - 3d0) > 1d-12) bad = bad + 1
  end do
  if (sgpu_context_destroy(ctx) /= 0) bad = bad + 1
  print '(a, a, a, i0, a)', 'sgpu ', sgpu_version(), ' Fortran consumer: ', bad, ' mismatches'
  if (bad /= 0) stop 1
end program consumer
