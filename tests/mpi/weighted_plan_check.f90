! hetlb_mpi_plan_create_weighted from Fortran 2008 (4 ranks, speeds 1, 1, 2, 4): the any layout, each
! rank's item ids, the plan's scatter and gather with every item back at its place (conservation).
program weighted_plan_check
  use, intrinsic :: iso_c_binding, only: c_long_long, c_double
  use mpi_f08
  use hetlb_mpi_f08
  implicit none
  integer, parameter :: n = 120
  type(hetlb_mpi_plan) :: plan
  real(c_double) :: weights(n)
  integer(c_long_long) :: data(n), back(n), offset
  integer(c_long_long), allocatable :: ids(:), mine(:)
  integer :: rank, count, ierr, k, bad, total
  character(len=4096) :: platform
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call get_command_argument(1, platform)
  do k = 1, n
    weights(k) = merge(17.0_c_double, 1.0_c_double, k > n / 3 .and. k <= 2 * n / 3)
    data(k) = 3 * (k - 1)
  end do
  back = -1
  call hetlb_mpi_plan_create_weighted(platform, int(n, c_long_long), weights, HETLB_MPI_LAYOUT_ANY, 0, MPI_COMM_WORLD, &
                                      plan, ierr)
  bad = merge(0, 1, ierr == MPI_SUCCESS)
  call hetlb_mpi_plan_share(plan, count, offset)
  allocate(ids(count), mine(count))
  call hetlb_mpi_plan_item_ids(plan, ids)
  call hetlb_mpi_plan_scatter(plan, data, MPI_INTEGER8, mine, MPI_INTEGER8, ierr)
  do k = 1, count
    if (mine(k) /= 3 * ids(k)) bad = bad + 1
  end do
  mine = mine + 1
  call hetlb_mpi_plan_gather(plan, mine, MPI_INTEGER8, back, MPI_INTEGER8, ierr)
  if (rank == 0) then
    do k = 1, n
      if (back(k) /= 3 * (k - 1) + 1) bad = bad + 1
    end do
  end if
  call MPI_Allreduce(count, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (total /= n) bad = bad + 1
  call hetlb_mpi_plan_free(plan)
  call MPI_Allreduce(MPI_IN_PLACE, bad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0 .and. bad /= 0) print '(a, i0)', 'weighted_plan_check.f90: failures: ', bad
  call MPI_Finalize()
  if (bad /= 0) stop 1
end program weighted_plan_check
