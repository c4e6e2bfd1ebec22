! Gather and scatter by id from Fortran (use hetlb_diffusion_f08): 4 ranks, 240 items (id, frame value)
! of two 64-bit integers, all on rank 0 at the start, bulk-synchronous, balanced by load. Every
! iteration the balancer's items are gathered at root 2 and checked there (every id once, in id order,
! each with its frame's value); the root writes the next frame and scatters it back into the items, and
! each rank checks its items. A second array of the program's (one double per item, in item order) is
! gathered and scattered too. Misuse (a payload size of 0) is refused with the same code on every rank.
! At the end the items must have moved. Exit 0 when every check passes.
program by_id_check
  use, intrinsic :: iso_c_binding, only: c_int64_t, c_f_pointer
  use mpi_f08
  use hetlb_diffusion_f08
  implicit none
  integer, parameter :: items = 240, root = 2
  type(hetlb_diffusion) :: lb
  integer :: rank, size, ierr, i, k, failed, any_failed, held, total, frame, lo, hi
  integer(c_int64_t) :: id, payload(2)
  integer(c_int64_t), pointer :: item(:)
  integer(c_int64_t), allocatable :: whole(:, :), ids(:)
  double precision, allocatable :: mine(:), values(:)
  logical :: running

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  failed = 0
  call hetlb_diffusion_create(MPI_COMM_WORLD, 16, lb, ierr, balance='load', bulk_synchronous=.true., &
                              iterations=10, time_limit=20d0)
  if (ierr /= HETLB_DIFFUSION_SUCCESS) call MPI_Abort(MPI_COMM_WORLD, 1)
  if (rank == 0) then
    do id = items - 1, 0, -1  ! held in the reverse of id order
      payload = [id, value_of(id, 0)]
      call hetlb_diffusion_add(lb, id, payload)
    end do
  end if
  call hetlb_diffusion_start(lb, ierr)
  if (hetlb_diffusion_total_items(lb) /= items) failed = 1
  allocate(whole(2, items), ids(items), values(items))
  frame = 0
  running = .true.
  do while (running)
    call exchange()
    frame = frame + 1
    call hetlb_diffusion_iteration_done(lb, running)
  end do
  call exchange()
  frame = frame + 1
  call hetlb_diffusion_gather_items(lb, 0, whole, ierr, root=root)
  lo = ierr
  hi = ierr
  call MPI_Allreduce(MPI_IN_PLACE, lo, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD)
  call MPI_Allreduce(MPI_IN_PLACE, hi, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD)
  if (lo /= HETLB_DIFFUSION_ERR_ARG .or. hi /= HETLB_DIFFUSION_ERR_ARG) failed = 1
  held = hetlb_diffusion_size(lb)
  call MPI_Allreduce(held, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (total /= items) failed = 1
  if (rank == 0 .and. held == items) failed = 1  ! nothing moved
  print '(a,i0,a,i0,a,i0,a)', 'fortran by id: rank ', rank, ' holds ', held, ' items, ', frame, ' frames'
  call hetlb_diffusion_free(lb)
  call MPI_Allreduce(failed, any_failed, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD)
  if (rank == 0 .and. any_failed /= 0) print '(a)', 'fortran by id check: FAILED'
  call MPI_Finalize()
  if (any_failed /= 0) stop 1

contains

  integer(c_int64_t) function value_of(id, f)
    integer(c_int64_t), intent(in) :: id
    integer, intent(in) :: f
    value_of = int(f, c_int64_t) * 100000_c_int64_t + id
  end function value_of

  ! Gather (checked at the root), next frame, scatter (checked everywhere), for the items and an array.
  subroutine exchange()
    integer :: n
    n = hetlb_diffusion_size(lb)
    allocate(mine(max(1, n)))
    do i = 1, n
      mine(i) = 0.5d0 * dble(hetlb_diffusion_id(lb, i))
    end do
    if (rank == root) then
      call hetlb_diffusion_gather_items(lb, 16, whole, ierr, root=root, root_ids=ids)
    else
      call hetlb_diffusion_gather_items(lb, 16, ierror=ierr, root=root)
    end if
    if (ierr /= HETLB_DIFFUSION_SUCCESS) failed = 1
    call hetlb_diffusion_gather_by_id(lb, mine, 8, values, ierr, root=root)
    if (ierr /= HETLB_DIFFUSION_SUCCESS) failed = 1
    if (rank == root) then
      do k = 1, items
        id = int(k - 1, c_int64_t)
        if (ids(k) /= id .or. whole(1, k) /= id .or. whole(2, k) /= value_of(id, frame)) failed = 1
        if (values(k) /= 0.5d0 * dble(id)) failed = 1
        whole(2, k) = value_of(id, frame + 1)
        values(k) = -dble(id)
      end do
    end if
    call hetlb_diffusion_scatter_items(lb, whole, 16, ierr, root=root)
    if (ierr /= HETLB_DIFFUSION_SUCCESS) failed = 1
    call hetlb_diffusion_scatter_by_id(lb, values, 8, mine, ierr, root=root)
    if (ierr /= HETLB_DIFFUSION_SUCCESS) failed = 1
    do i = 1, n
      call c_f_pointer(hetlb_diffusion_item(lb, i), item, [2])
      id = hetlb_diffusion_id(lb, i)
      if (item(1) /= id .or. item(2) /= value_of(id, frame + 1)) failed = 1
      if (mine(i) /= -dble(id)) failed = 1
    end do
    deallocate(mine)
  end subroutine exchange

end program by_id_check
