! hetlb_mpi_f08: the persistent load-balanced scatter/gather plan of hetlb/mpi/plan.h for Fortran 2008
! programs using mpi_f08 (RR-4770, Sections 2 and 5). Thin wrappers over the C interface through
! ISO_C_BINDING; the conventions, the errors and the thread rules are those of plan.h. ierror, when
! present, receives MPI_SUCCESS or the MPI error class of a hetlb error (hetlb_mpi_error_of gives the
! HETLB_MPI_E_* value). Buffers are arrays passed by address (a zero-size array where unused).
module hetlb_mpi_f08
  use, intrinsic :: iso_c_binding, only: c_int, c_long_long, c_double, c_ptr, c_null_ptr, c_char, c_null_char
  use mpi_f08, only: MPI_Comm, MPI_Datatype
  implicit none
  private

  public :: hetlb_mpi_plan, hetlb_mpi_plan_create, hetlb_mpi_plan_share, hetlb_mpi_plan_counts, &
            hetlb_mpi_plan_scatter, hetlb_mpi_plan_gather, hetlb_mpi_plan_set_checks, hetlb_mpi_plan_free, hetlb_mpi_error_of, &
            hetlb_mpi_set_error_output, hetlb_mpi_plan_create_measured, hetlb_mpi_plan_check, &
            hetlb_mpi_plan_create_weighted, hetlb_mpi_plan_item_ids, HETLB_MPI_LAYOUT_CONTIGUOUS, HETLB_MPI_LAYOUT_ANY
  public :: HETLB_MPI_E_PLATFORM, HETLB_MPI_E_SIZE, HETLB_MPI_E_ROOT, HETLB_MPI_E_COUNT, HETLB_MPI_E_BUFFER, &
            HETLB_MPI_E_MPI, HETLB_MPI_E_TYPE, HETLB_MPI_E_PLAN, HETLB_MPI_E_COMM, HETLB_MPI_E_ARG, &
            HETLB_MPI_PLAN_ON_TRACK, HETLB_MPI_PLAN_STALE, HETLB_MPI_PLAN_REPLANNED

  integer, parameter :: HETLB_MPI_E_PLATFORM = 1, HETLB_MPI_E_SIZE = 2, HETLB_MPI_E_ROOT = 3, &
                        HETLB_MPI_E_COUNT = 4, HETLB_MPI_E_BUFFER = 5, HETLB_MPI_E_MPI = 6, &
                        HETLB_MPI_E_TYPE = 7, HETLB_MPI_E_PLAN = 8, HETLB_MPI_E_COMM = 9, HETLB_MPI_E_ARG = 10
  integer, parameter :: HETLB_MPI_LAYOUT_CONTIGUOUS = 1, HETLB_MPI_LAYOUT_ANY = 2
  integer, parameter :: HETLB_MPI_PLAN_ON_TRACK = 0, HETLB_MPI_PLAN_STALE = 1, HETLB_MPI_PLAN_REPLANNED = 2

  type, bind(C) :: hetlb_mpi_plan
    type(c_ptr) :: handle = c_null_ptr
  end type hetlb_mpi_plan

  interface
    integer(c_int) function c_create(path, n, root, comm, plan) bind(C, name="hetlb_mpi_plan_create_f08")
      import :: c_int, c_long_long, c_char, c_ptr
      character(kind=c_char), dimension(*), intent(in) :: path
      integer(c_long_long), value :: n
      integer(c_int), value :: root, comm
      type(c_ptr), intent(out) :: plan
    end function c_create
    integer(c_int) function c_create_measured(seconds, item_bytes, n, root, comm, plan) &
        bind(C, name="hetlb_mpi_plan_create_measured_f08")
      import :: c_int, c_long_long, c_double, c_ptr
      real(c_double), value :: seconds
      integer(c_int), value :: item_bytes
      integer(c_long_long), value :: n
      integer(c_int), value :: root, comm
      type(c_ptr), intent(out) :: plan
    end function c_create_measured
    integer(c_int) function c_create_weighted(path, n, weights, layout, root, comm, plan) &
        bind(C, name="hetlb_mpi_plan_create_weighted_f08")
      import :: c_int, c_long_long, c_double, c_char, c_ptr
      character(kind=c_char), dimension(*), intent(in) :: path
      integer(c_long_long), value :: n
      real(c_double), dimension(*), intent(in) :: weights
      integer(c_int), value :: layout, root, comm
      type(c_ptr), intent(out) :: plan
    end function c_create_weighted
    integer(c_int) function c_item_ids(plan, ids) bind(C, name="hetlb_mpi_plan_item_ids")
      import :: c_int, c_long_long, c_ptr
      type(c_ptr), value :: plan
      integer(c_long_long), dimension(*), intent(out) :: ids
    end function c_item_ids
    integer(c_int) function c_check(plan, seconds, margin, replan, status, departure) bind(C, name="hetlb_mpi_plan_check")
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: plan
      real(c_double), value :: seconds, margin
      integer(c_int), value :: replan
      integer(c_int), intent(out) :: status
      real(c_double), intent(out) :: departure
    end function c_check
    integer(c_int) function c_share(plan, count, offset) bind(C, name="hetlb_mpi_plan_share")
      import :: c_int, c_long_long, c_ptr
      type(c_ptr), value :: plan
      integer(c_int), intent(out) :: count
      integer(c_long_long), intent(out) :: offset
    end function c_share
    integer(c_int) function c_counts(plan, counts, displs, order) bind(C, name="hetlb_mpi_plan_counts")
      import :: c_int, c_ptr
      type(c_ptr), value :: plan
      integer(c_int), dimension(*), intent(out) :: counts, displs, order
    end function c_counts
    integer(c_int) function c_scatter(plan, sendbuf, sendtype, recvbuf, recvtype) bind(C, name="hetlb_mpi_plan_scatter_f08")
      import :: c_int, c_ptr
      type(c_ptr), value :: plan
      type(*), dimension(*), intent(in) :: sendbuf
      integer(c_int), value :: sendtype, recvtype
      type(*), dimension(*) :: recvbuf
    end function c_scatter
    integer(c_int) function c_gather(plan, sendbuf, sendtype, recvbuf, recvtype) bind(C, name="hetlb_mpi_plan_gather_f08")
      import :: c_int, c_ptr
      type(c_ptr), value :: plan
      type(*), dimension(*), intent(in) :: sendbuf
      integer(c_int), value :: sendtype, recvtype
      type(*), dimension(*) :: recvbuf
    end function c_gather
    integer(c_int) function c_set_checks(plan, enabled) bind(C, name="hetlb_mpi_plan_set_checks")
      import :: c_int, c_ptr
      type(c_ptr), value :: plan
      integer(c_int), value :: enabled
    end function c_set_checks
    integer(c_int) function c_free(plan) bind(C, name="hetlb_mpi_plan_free")
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: plan
    end function c_free
    integer(c_int) function c_error_of(code) bind(C, name="hetlb_mpi_error_of")
      import :: c_int
      integer(c_int), value :: code
    end function c_error_of
    subroutine c_set_error_output(enabled) bind(C, name="hetlb_mpi_set_error_output")
      import :: c_int
      integer(c_int), value :: enabled
    end subroutine c_set_error_output
  end interface

contains

  ! Collective. Only the root's platform_path and n count (the others may pass '' and 0).
  subroutine hetlb_mpi_plan_create(platform_path, n, root, comm, plan, ierror)
    character(len=*), intent(in) :: platform_path
    integer(c_long_long), intent(in) :: n
    integer, intent(in) :: root
    type(MPI_Comm), intent(in) :: comm
    type(hetlb_mpi_plan), intent(out) :: plan
    integer, optional, intent(out) :: ierror
    integer :: rc
    rc = c_create(trim(platform_path) // c_null_char, n, int(root, c_int), int(comm%MPI_VAL, c_int), plan%handle)
    if (present(ierror)) ierror = rc
  end subroutine hetlb_mpi_plan_create

  ! Collective. A plan from measured costs (plan.h): each rank's own seconds per item; links timed by
  ! the root when its item_bytes > 0. Only the root's n and item_bytes count.
  subroutine hetlb_mpi_plan_create_measured(seconds_per_item, item_bytes, n, root, comm, plan, ierror)
    real(c_double), intent(in) :: seconds_per_item
    integer, intent(in) :: item_bytes, root
    integer(c_long_long), intent(in) :: n
    type(MPI_Comm), intent(in) :: comm
    type(hetlb_mpi_plan), intent(out) :: plan
    integer, optional, intent(out) :: ierror
    integer :: rc
    rc = c_create_measured(seconds_per_item, int(item_bytes, c_int), n, int(root, c_int), int(comm%MPI_VAL, c_int), &
                           plan%handle)
    if (present(ierror)) ierror = rc
  end subroutine hetlb_mpi_plan_create_measured

  ! Collective. A plan for n items of unequal cost (plan.h): the root's weights(k) >= 0 is the work of
  ! item k-1 (ids are 0-based, as in C); layout HETLB_MPI_LAYOUT_CONTIGUOUS or HETLB_MPI_LAYOUT_ANY.
  ! Only the root's n, weights and layout count (the others may pass a zero-size array); at the root
  ! size(weights) must be n, else the call is refused on every rank as one of no items.
  subroutine hetlb_mpi_plan_create_weighted(platform_path, n, weights, layout, root, comm, plan, ierror)
    character(len=*), intent(in) :: platform_path
    integer(c_long_long), intent(in) :: n
    real(c_double), dimension(:), intent(in) :: weights
    integer, intent(in) :: layout, root
    type(MPI_Comm), intent(in) :: comm
    type(hetlb_mpi_plan), intent(out) :: plan
    integer, optional, intent(out) :: ierror
    integer :: rc
    real(c_double), dimension(1) :: none
    none = 0
    if (size(weights) > 0 .and. size(weights, kind=c_long_long) == n) then
      rc = c_create_weighted(trim(platform_path) // c_null_char, n, weights, int(layout, c_int), int(root, c_int), &
                             int(comm%MPI_VAL, c_int), plan%handle)
    else
      rc = c_create_weighted(trim(platform_path) // c_null_char, 0_c_long_long, none, &
                             int(layout, c_int), int(root, c_int), int(comm%MPI_VAL, c_int), plan%handle)
    end if
    if (present(ierror)) ierror = rc
  end subroutine hetlb_mpi_plan_create_weighted

  ! Local. This rank's item ids (0-based), as many as its count (hetlb_mpi_plan_share).
  subroutine hetlb_mpi_plan_item_ids(plan, ids, ierror)
    type(hetlb_mpi_plan), intent(in) :: plan
    integer(c_long_long), dimension(:), intent(out) :: ids
    integer, optional, intent(out) :: ierror
    integer :: rc
    integer(c_long_long), dimension(1) :: none
    if (size(ids) > 0) then
      rc = c_item_ids(plan%handle, ids)
    else
      rc = c_item_ids(plan%handle, none)
    end if
    if (present(ierror)) ierror = rc
  end subroutine hetlb_mpi_plan_item_ids

  ! Collective. The plan's self-check (plan.h): status is HETLB_MPI_PLAN_ON_TRACK, _STALE or _REPLANNED.
  subroutine hetlb_mpi_plan_check(plan, seconds, margin, replan, status, departure, ierror)
    type(hetlb_mpi_plan), intent(in) :: plan
    real(c_double), intent(in) :: seconds, margin
    logical, intent(in) :: replan
    integer, intent(out) :: status
    real(c_double), optional, intent(out) :: departure
    integer, optional, intent(out) :: ierror
    integer(c_int) :: s
    real(c_double) :: d
    integer :: rc
    rc = c_check(plan%handle, seconds, margin, merge(1_c_int, 0_c_int, replan), s, d)
    status = s
    if (present(departure)) departure = d
    if (present(ierror)) ierror = rc
  end subroutine hetlb_mpi_plan_check

  ! Local: this rank's item count and the (0-based) index of its first item in the root's buffer.
  subroutine hetlb_mpi_plan_share(plan, count, offset, ierror)
    type(hetlb_mpi_plan), intent(in) :: plan
    integer, intent(out) :: count
    integer(c_long_long), intent(out) :: offset
    integer, optional, intent(out) :: ierror
    integer(c_int) :: c
    integer :: rc
    rc = c_share(plan%handle, c, offset)
    count = c
    if (present(ierror)) ierror = rc
  end subroutine hetlb_mpi_plan_share

  ! Local: arrays of communicator size; displs are 0-based, send_order holds 0-based ranks.
  subroutine hetlb_mpi_plan_counts(plan, counts, displs, send_order, ierror)
    type(hetlb_mpi_plan), intent(in) :: plan
    integer(c_int), dimension(:), intent(out) :: counts, displs, send_order
    integer, optional, intent(out) :: ierror
    integer :: rc
    rc = c_counts(plan%handle, counts, displs, send_order)
    if (present(ierror)) ierror = rc
  end subroutine hetlb_mpi_plan_counts

  subroutine hetlb_mpi_plan_scatter(plan, sendbuf, sendtype, recvbuf, recvtype, ierror)
    type(hetlb_mpi_plan), intent(in) :: plan
    type(*), dimension(*), intent(in) :: sendbuf
    type(MPI_Datatype), intent(in) :: sendtype, recvtype
    type(*), dimension(*) :: recvbuf
    integer, optional, intent(out) :: ierror
    integer :: rc
    rc = c_scatter(plan%handle, sendbuf, int(sendtype%MPI_VAL, c_int), recvbuf, int(recvtype%MPI_VAL, c_int))
    if (present(ierror)) ierror = rc
  end subroutine hetlb_mpi_plan_scatter

  subroutine hetlb_mpi_plan_gather(plan, sendbuf, sendtype, recvbuf, recvtype, ierror)
    type(hetlb_mpi_plan), intent(in) :: plan
    type(*), dimension(*), intent(in) :: sendbuf
    type(MPI_Datatype), intent(in) :: sendtype, recvtype
    type(*), dimension(*) :: recvbuf
    integer, optional, intent(out) :: ierror
    integer :: rc
    rc = c_gather(plan%handle, sendbuf, int(sendtype%MPI_VAL, c_int), recvbuf, int(recvtype%MPI_VAL, c_int))
    if (present(ierror)) ierror = rc
  end subroutine hetlb_mpi_plan_gather

  ! Collective, the same value on every rank: .false. drops the per-call agreement check (plan.h).
  subroutine hetlb_mpi_plan_set_checks(plan, enabled, ierror)
    type(hetlb_mpi_plan), intent(in) :: plan
    logical, intent(in) :: enabled
    integer, optional, intent(out) :: ierror
    integer :: rc
    rc = c_set_checks(plan%handle, merge(1_c_int, 0_c_int, enabled))
    if (present(ierror)) ierror = rc
  end subroutine hetlb_mpi_plan_set_checks

  ! Collective.
  subroutine hetlb_mpi_plan_free(plan, ierror)
    type(hetlb_mpi_plan), intent(inout) :: plan
    integer, optional, intent(out) :: ierror
    integer :: rc
    rc = c_free(plan%handle)
    if (present(ierror)) ierror = rc
  end subroutine hetlb_mpi_plan_free

  integer function hetlb_mpi_error_of(code)
    integer, intent(in) :: code
    hetlb_mpi_error_of = c_error_of(int(code, c_int))
  end function hetlb_mpi_error_of

  subroutine hetlb_mpi_set_error_output(enabled)
    logical, intent(in) :: enabled
    call c_set_error_output(merge(1_c_int, 0_c_int, enabled))
  end subroutine hetlb_mpi_set_error_output

end module hetlb_mpi_f08
