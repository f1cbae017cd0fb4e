! Fortran interface to sgpu (include/sgpu.h), through iso_c_binding.
!   use sgpu
!   integer(c_int) :: st
!   st = sgpu_dgeev_batched(c_null_ptr, 'N', 'N', n, a, lda, stride_a, wr, wi, n_stride, &
!                           vl, 1, 0_c_int64_t, vr, 1, 0_c_int64_t, info, batch)
! Job flags are passed by value as character(kind=c_char); the default context is c_null_ptr.
! Arrays are passed as assumed-size arguments, so any contiguous array of the right type works.
! Outputs a job flag leaves unreferenced (dgeev's vl and vr, dhseqr's z) are optional: omit them
! and name the arguments after them (the C library then sees a null pointer), e.g.
!   st = sgpu_dgeev_batched(c_null_ptr, 'N', 'V', n, a, lda, stride_a, wr, wi, n_stride, &
!                           ldvl=1, stride_vl=0_c_int64_t, vr=vr, ldvr=n, stride_vr=stride_a, &
!                           info=info, batch=batch)
module sgpu
  use, intrinsic :: iso_c_binding
  implicit none

  integer(c_int), parameter :: SGPU_BACKEND_AUTO = 0, SGPU_BACKEND_CPU = 1, SGPU_BACKEND_GPU = 2
  integer(c_int), parameter :: SGPU_R_32F = 0, SGPU_R_64F = 1, SGPU_R_32I = 2, SGPU_R_64I = 3, &
                               SGPU_R_8U = 4, SGPU_R_32U = 5
  integer(c_int), parameter :: SGPU_ROW_MAJOR = 101, SGPU_COL_MAJOR = 102
  integer(c_int), parameter :: SGPU_SUCCESS = 0, SGPU_ERR_HOST_ALLOC = -1001, &
                               SGPU_ERR_DEVICE_ALLOC = -1002, SGPU_ERR_DEVICE = -1003, &
                               SGPU_ERR_NO_BACKEND = -1004, SGPU_ERR_NOT_SUPPORTED = -1005, &
                               SGPU_ERR_INVALID_CONTEXT = -1006
  ! info(b) after a call that returned below -1000: matrix b was not computed.
  integer(c_int), parameter :: SGPU_INFO_NOT_COMPUTED = -1
  ! Longest device list of sgpu_context_set_devices.
  integer(c_int), parameter :: SGPU_MAX_DEVICES = 16

  interface
    integer(c_int) function sgpu_context_create(ctx) bind(C, name="sgpu_context_create")
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: ctx
    end function
    integer(c_int) function sgpu_context_destroy(ctx) bind(C, name="sgpu_context_destroy")
      import :: c_int, c_ptr
      type(c_ptr), value :: ctx
    end function
    integer(c_int) function sgpu_context_set_backend(ctx, backend) bind(C, name="sgpu_context_set_backend")
      import :: c_int, c_ptr
      type(c_ptr), value :: ctx
      integer(c_int), value :: backend
    end function
    integer(c_int) function sgpu_context_get_backend(ctx, backend) bind(C, name="sgpu_context_get_backend")
      import :: c_int, c_ptr
      type(c_ptr), value :: ctx
      integer(c_int), intent(out) :: backend
    end function
    integer(c_int) function sgpu_context_set_device(ctx, device) bind(C, name="sgpu_context_set_device")
      import :: c_int, c_ptr
      type(c_ptr), value :: ctx
      integer(c_int), value :: device
    end function
    integer(c_int) function sgpu_context_set_stream(ctx, stream) bind(C, name="sgpu_context_set_stream")
      import :: c_int, c_ptr
      type(c_ptr), value :: ctx, stream
    end function
    integer(c_int) function sgpu_context_set_num_threads(ctx, nthreads) &
        bind(C, name="sgpu_context_set_num_threads")
      import :: c_int, c_ptr
      type(c_ptr), value :: ctx
      integer(c_int), value :: nthreads
    end function
    integer(c_int) function sgpu_context_set_devices(ctx, devices, count) &
        bind(C, name="sgpu_context_set_devices")
      import :: c_int, c_ptr
      type(c_ptr), value :: ctx
      integer(c_int), intent(in) :: devices(*)
      integer(c_int), value :: count
    end function
    integer(c_int) function sgpu_context_get_devices(ctx, devices, capacity, count) &
        bind(C, name="sgpu_context_get_devices")
      import :: c_int, c_ptr
      type(c_ptr), value :: ctx
      integer(c_int), intent(out) :: devices(*)
      integer(c_int), value :: capacity
      integer(c_int), intent(out) :: count
    end function
    integer(c_int) function sgpu_context_set_device_memory_limit(ctx, bytes) &
        bind(C, name="sgpu_context_set_device_memory_limit")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: ctx
      integer(c_size_t), value :: bytes
    end function
    integer(c_int) function sgpu_gpu_count() bind(C, name="sgpu_gpu_count")
      import :: c_int
    end function
    type(c_ptr) function sgpu_version_c() bind(C, name="sgpu_version")
      import :: c_ptr
    end function
    type(c_ptr) function sgpu_strerror_c(status) bind(C, name="sgpu_strerror")
      import :: c_ptr, c_int
      integer(c_int), value :: status
    end function

    integer(c_int) function sgpu_dhseqr_batched(ctx, job, compz, n, ilo, ihi, h, ldh, stride_h, &
        wr, wi, stride_w, z, ldz, stride_z, info, batch) bind(C, name="sgpu_dhseqr_batched")
      import :: c_int, c_int64_t, c_ptr, c_char, c_double
      type(c_ptr), value :: ctx
      character(kind=c_char), value :: job, compz
      integer(c_int), value :: n, ilo, ihi, ldh, ldz
      integer(c_int64_t), value :: stride_h, stride_w, stride_z, batch
      real(c_double) :: h(*), wr(*), wi(*)
      real(c_double), optional :: z(*)
      integer(c_int) :: info(*)
    end function

    integer(c_int) function sgpu_dgeev_batched(ctx, jobvl, jobvr, n, a, lda, stride_a, wr, wi, &
        stride_w, vl, ldvl, stride_vl, vr, ldvr, stride_vr, info, batch) bind(C, name="sgpu_dgeev_batched")
      import :: c_int, c_int64_t, c_ptr, c_char, c_double
      type(c_ptr), value :: ctx
      character(kind=c_char), value :: jobvl, jobvr
      integer(c_int), value :: n, lda, ldvl, ldvr
      integer(c_int64_t), value :: stride_a, stride_w, stride_vl, stride_vr, batch
      real(c_double) :: a(*), wr(*), wi(*)
      real(c_double), optional :: vl(*), vr(*)
      integer(c_int) :: info(*)
    end function

    integer(c_int) function sgpu_zheev_batched(ctx, jobz, uplo, n, a, lda, stride_a, w, stride_w, &
        info, batch) bind(C, name="sgpu_zheev_batched")
      import :: c_int, c_int64_t, c_ptr, c_char, c_double, c_double_complex
      type(c_ptr), value :: ctx
      character(kind=c_char), value :: jobz, uplo
      integer(c_int), value :: n, lda
      integer(c_int64_t), value :: stride_a, stride_w, batch
      complex(c_double_complex) :: a(*)
      real(c_double) :: w(*)
      integer(c_int) :: info(*)
    end function

    integer(c_int) function sgpu_scan_cols(ctx, layout, type_in, type_out, m, n, a, lda, stride_a, &
        b, ldb, stride_b, batch) bind(C, name="sgpu_scan_cols")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: ctx
      integer(c_int), value :: layout, type_in, type_out, m, n, lda, ldb
      type(c_ptr), value :: a, b
      integer(c_int64_t), value :: stride_a, stride_b, batch
    end function
  end interface

contains

  ! The C string returned by sgpu_strerror/sgpu_version as a Fortran string.
  function sgpu_c_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: n
    interface
      integer(c_size_t) function c_strlen(q) bind(C, name="strlen")
        import :: c_size_t, c_ptr
        type(c_ptr), value :: q
      end function
    end interface
    n = int(c_strlen(p))
    call c_f_pointer(p, chars, [n])
    allocate(character(len=n) :: s)
    s = transfer(chars(1:n), s)
  end function

  function sgpu_version() result(s)
    character(len=:), allocatable :: s
    s = sgpu_c_string(sgpu_version_c())
  end function

  function sgpu_strerror(status) result(s)
    integer(c_int), intent(in) :: status
    character(len=:), allocatable :: s
    s = sgpu_c_string(sgpu_strerror_c(status))
  end function

end module sgpu
