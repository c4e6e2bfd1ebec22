! Plan once, scatter n numbers from the root, double them, gather them back (Fortran 2008).
program quickstart
  use mpi_f08
  use hetlb_mpi_f08
  use, intrinsic :: iso_fortran_env, only: int64, real64
  implicit none
  integer(int64), parameter :: n = 100000
  integer, parameter :: root = 0
  type(hetlb_mpi_plan) :: plan
  real(real64), allocatable :: data(:), mine(:)
  character(len=256) :: platform
  integer :: rank, count, ierr, j, bad, any_bad
  integer(int64) :: offset, i

  call MPI_Init()
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call get_command_argument(1, platform)
  call hetlb_mpi_plan_create(platform, n, root, MPI_COMM_WORLD, plan, ierr)
  if (ierr /= MPI_SUCCESS) error stop 1
  call hetlb_mpi_plan_share(plan, count, offset)

  allocate(data(merge(n, 0_int64, rank == root)), mine(count))
  data = [(real(i, real64), i = 0, size(data, kind=int64) - 1)]
  call hetlb_mpi_plan_scatter(plan, data, MPI_DOUBLE_PRECISION, mine, MPI_DOUBLE_PRECISION, ierr)
  bad = 0
  do j = 1, count  ! this rank's items: offset, offset + 1, ... (0-based in the root's buffer)
    if (mine(j) /= real(offset + j - 1, real64)) bad = 1
  end do
  mine = 2 * mine
  call hetlb_mpi_plan_set_checks(plan, .false., ierr)  ! the arguments agree: no per-call check
  if (ierr /= MPI_SUCCESS) error stop 1
  call hetlb_mpi_plan_gather(plan, mine, MPI_DOUBLE_PRECISION, data, MPI_DOUBLE_PRECISION, ierr)
  do i = 1, size(data, kind=int64)
    if (data(i) /= 2 * real(i - 1, real64)) bad = 1
  end do

  call MPI_Allreduce(bad, any_bad, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD)
  if (rank == root) print '(a, i0, a, a)', 'Fortran: ', n, ' items scattered and gathered back, ', &
      merge('WRONG      ', 'all checked', any_bad /= 0)
  call hetlb_mpi_plan_free(plan)
  call MPI_Finalize()
  if (any_bad /= 0) error stop 1
end program quickstart
