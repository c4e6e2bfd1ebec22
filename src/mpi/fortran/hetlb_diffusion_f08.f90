! hetlb_diffusion_f08: the diffusion runtime of hetlb/mpi/diffusion.h for Fortran 2008 programs using
! mpi_f08 (docs/runtime.md): fixed-size items held by the runtime, the bulk-synchronous and asynchronous
! modes, balance by time with given or measured speeds. Thin wrappers over the C interface through
! ISO_C_BINDING; options are optional arguments of hetlb_diffusion_create (defaults: the C ones).
! ierror, when present, receives HETLB_DIFFUSION_SUCCESS (0) or a HETLB_DIFFUSION_ERR_* code, the same
! on every rank for collective calls; hetlb_diffusion_last_error gives the one-line reason. Item
! indices are 1-based here.
module hetlb_diffusion_f08
  use, intrinsic :: iso_c_binding, only: c_int, c_long, c_double, c_size_t, c_int64_t, c_ptr, c_null_ptr, &
                                         c_char, c_null_char, c_loc, c_f_pointer, c_associated
  use mpi_f08, only: MPI_Comm
  implicit none
  private

  public :: hetlb_diffusion, hetlb_diffusion_create, hetlb_diffusion_add, hetlb_diffusion_start, &
            hetlb_diffusion_size, hetlb_diffusion_id, hetlb_diffusion_item, hetlb_diffusion_iteration_done, &
            hetlb_diffusion_progress, hetlb_diffusion_stop, hetlb_diffusion_speed, hetlb_diffusion_free, &
            hetlb_diffusion_last_error, hetlb_diffusion_set_cost, hetlb_diffusion_set_costs, hetlb_diffusion_cost, &
            hetlb_diffusion_load, hetlb_diffusion_set_balancer, &
            hetlb_diffusion_total_items, hetlb_diffusion_gather_by_id, &
            hetlb_diffusion_scatter_by_id, hetlb_diffusion_gather_items, hetlb_diffusion_scatter_items
  public :: HETLB_DIFFUSION_SUCCESS, HETLB_DIFFUSION_ERR_ARG, HETLB_DIFFUSION_ERR_TOPOLOGY, &
            HETLB_DIFFUSION_ERR_STATE, HETLB_DIFFUSION_ERR_MPI

  integer, parameter :: HETLB_DIFFUSION_SUCCESS = 0, HETLB_DIFFUSION_ERR_ARG = 1, &
                        HETLB_DIFFUSION_ERR_TOPOLOGY = 2, HETLB_DIFFUSION_ERR_STATE = 3, HETLB_DIFFUSION_ERR_MPI = 4

  type :: hetlb_diffusion
    type(c_ptr) :: handle = c_null_ptr
  end type hetlb_diffusion

  ! The C options struct, member for member (hetlb/mpi/diffusion.h).
  type, bind(C) :: c_options
    type(c_ptr) :: topology, strategy
    real(c_double) :: k
    integer(c_int) :: virtual_load, integer
    real(c_double) :: min_balancing_period, min_computing_period
    integer(c_long) :: iterations
    real(c_double) :: tolerance, time_limit
    integer(c_int) :: progress_thread, use_comm_graph, bulk_synchronous
    integer(c_long) :: sync_interval
    integer(c_int) :: wait_for_load, end_on_convergence
    type(c_ptr) :: balance, speeds
    integer(c_int) :: speed_count
    real(c_double) :: speed_time_constant, speed_hysteresis
    type(c_ptr) :: speeds_file
  end type c_options

  interface
    subroutine c_options_init(o) bind(C, name="hetlb_diffusion_options_init")
      import :: c_options
      type(c_options), intent(out) :: o
    end subroutine c_options_init
    integer(c_int) function c_create(comm, o, item_bytes, lb) bind(C, name="hetlb_diffusion_create_f08")
      import :: c_int, c_options, c_size_t, c_ptr
      integer(c_int), value :: comm
      type(c_options), intent(in) :: o
      integer(c_size_t), value :: item_bytes
      type(c_ptr), intent(out) :: lb
    end function c_create
    integer(c_int) function c_add(lb, id, payload) bind(C, name="hetlb_diffusion_add")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: lb
      integer(c_int64_t), value :: id
      type(*), dimension(*), intent(in) :: payload
    end function c_add
    integer(c_int) function c_start(lb) bind(C, name="hetlb_diffusion_start")
      import :: c_int, c_ptr
      type(c_ptr), value :: lb
    end function c_start
    integer(c_size_t) function c_size(lb) bind(C, name="hetlb_diffusion_size")
      import :: c_size_t, c_ptr
      type(c_ptr), value :: lb
    end function c_size
    integer(c_int) function c_set_cost(lb, id, cost) bind(C, name="hetlb_diffusion_set_cost")
      import :: c_int, c_ptr, c_int64_t, c_double
      type(c_ptr), value :: lb
      integer(c_int64_t), value :: id
      real(c_double), value :: cost
    end function c_set_cost
    integer(c_int) function c_set_costs(lb, costs, n) bind(C, name="hetlb_diffusion_set_costs")
      import :: c_int, c_ptr, c_double, c_size_t
      type(c_ptr), value :: lb
      real(c_double), dimension(*), intent(in) :: costs
      integer(c_size_t), value :: n
    end function c_set_costs
    integer(c_int) function c_cost(lb, i, cost) bind(C, name="hetlb_diffusion_cost")
      import :: c_int, c_ptr, c_size_t, c_double
      type(c_ptr), value :: lb
      integer(c_size_t), value :: i
      real(c_double), intent(out) :: cost
    end function c_cost
    real(c_double) function c_load(lb) bind(C, name="hetlb_diffusion_load")
      import :: c_ptr, c_double
      type(c_ptr), value :: lb
    end function c_load
    integer(c_size_t) function c_total_items(lb) bind(C, name="hetlb_diffusion_total_items")
      import :: c_size_t, c_ptr
      type(c_ptr), value :: lb
    end function c_total_items
    ! Absent optional arrays arrive as NULL (the balancer's items, nothing at a rank that is not the root).
    integer(c_int) function c_gather_by_id(lb, local, item_bytes, root_out, root_ids, root) &
        bind(C, name="hetlb_diffusion_gather_by_id")
      import :: c_int, c_ptr, c_size_t, c_int64_t
      type(c_ptr), value :: lb
      type(*), dimension(*), intent(in), optional :: local
      integer(c_size_t), value :: item_bytes
      type(*), dimension(*), intent(inout), optional :: root_out
      integer(c_int64_t), dimension(*), intent(inout), optional :: root_ids
      integer(c_int), value :: root
    end function c_gather_by_id
    integer(c_int) function c_scatter_by_id(lb, root_in, item_bytes, local, root) &
        bind(C, name="hetlb_diffusion_scatter_by_id")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: lb
      type(*), dimension(*), intent(in), optional :: root_in
      integer(c_size_t), value :: item_bytes
      type(*), dimension(*), intent(inout), optional :: local
      integer(c_int), value :: root
    end function c_scatter_by_id
    integer(c_int) function c_get(lb, i, id, item) bind(C, name="hetlb_diffusion_get")
      import :: c_int, c_ptr, c_size_t, c_int64_t
      type(c_ptr), value :: lb
      integer(c_size_t), value :: i
      integer(c_int64_t), intent(out) :: id
      type(c_ptr), intent(out) :: item
    end function c_get
    integer(c_int) function c_iteration_done(lb, running) bind(C, name="hetlb_diffusion_iteration_done")
      import :: c_int, c_ptr
      type(c_ptr), value :: lb
      integer(c_int), intent(out) :: running
    end function c_iteration_done
    integer(c_int) function c_iteration_done_timed(lb, seconds, running) &
        bind(C, name="hetlb_diffusion_iteration_done_timed")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: lb
      real(c_double), value :: seconds
      integer(c_int), intent(out) :: running
    end function c_iteration_done_timed
    integer(c_int) function c_progress(lb) bind(C, name="hetlb_diffusion_progress")
      import :: c_int, c_ptr
      type(c_ptr), value :: lb
    end function c_progress
    integer(c_int) function c_stop(lb) bind(C, name="hetlb_diffusion_stop")
      import :: c_int, c_ptr
      type(c_ptr), value :: lb
    end function c_stop
    real(c_double) function c_speed(lb) bind(C, name="hetlb_diffusion_speed")
      import :: c_double, c_ptr
      type(c_ptr), value :: lb
    end function c_speed
    subroutine c_free(lb) bind(C, name="hetlb_diffusion_free")
      import :: c_ptr
      type(c_ptr), intent(inout) :: lb
    end subroutine c_free
    integer(c_int) function c_set_balancer(lb, balancer, total_iterations) &
        bind(C, name="hetlb_diffusion_set_balancer")
      import :: c_int, c_ptr, c_long, c_char
      type(c_ptr), value :: lb
      character(kind=c_char), dimension(*), intent(in) :: balancer
      integer(c_long), value :: total_iterations
    end function c_set_balancer
    type(c_ptr) function c_last_error() bind(C, name="hetlb_diffusion_last_error")
      import :: c_ptr
    end function c_last_error
    integer(c_size_t) function c_strlen(s) bind(C, name="strlen")
      import :: c_size_t, c_ptr
      type(c_ptr), value :: s
    end function c_strlen
  end interface

contains

  ! Collective. Every option is optional (C defaults: topology 'auto', strategy 'besteffort', balance
  ! 'time' with measured speeds, asynchronous mode); speeds: one relative speed per rank, or speeds_file:
  ! hetlb-calibrate's output as it is, or a list of numbers.
  subroutine hetlb_diffusion_create(comm, item_bytes, lb, ierror, topology, strategy, k, balance, speeds, &
                                    bulk_synchronous, end_on_convergence, wait_for_load, progress_thread, &
                                    virtual_load, integer_load, iterations, min_balancing_period, time_limit, &
                                    sync_interval, speeds_file)
    type(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: item_bytes
    type(hetlb_diffusion), intent(out) :: lb
    integer, optional, intent(out) :: ierror
    character(len=*), optional, intent(in) :: topology, strategy, balance, speeds_file
    double precision, optional, intent(in) :: k, min_balancing_period, time_limit
    double precision, optional, intent(in), target :: speeds(:)
    logical, optional, intent(in) :: bulk_synchronous, end_on_convergence, wait_for_load, progress_thread, &
                                     virtual_load, integer_load
    integer, optional, intent(in) :: iterations, sync_interval
    type(c_options) :: o
    character(kind=c_char, len=:), allocatable, target :: topology_c, strategy_c, balance_c, speeds_file_c
    real(c_double), allocatable, target :: speeds_c(:)
    integer :: rc
    call c_options_init(o)
    if (present(topology)) then
      topology_c = trim(topology) // c_null_char
      o%topology = c_loc(topology_c)
    end if
    if (present(strategy)) then
      strategy_c = trim(strategy) // c_null_char
      o%strategy = c_loc(strategy_c)
    end if
    if (present(balance)) then
      balance_c = trim(balance) // c_null_char
      o%balance = c_loc(balance_c)
    end if
    if (present(speeds_file)) then
      speeds_file_c = trim(speeds_file) // c_null_char
      o%speeds_file = c_loc(speeds_file_c)
    end if
    if (present(speeds)) then
      allocate(speeds_c(max(1, size(speeds))))
      speeds_c(1:size(speeds)) = speeds
      o%speeds = c_loc(speeds_c)
      o%speed_count = int(size(speeds), c_int)
    end if
    if (present(k)) o%k = k
    if (present(min_balancing_period)) o%min_balancing_period = min_balancing_period
    if (present(time_limit)) o%time_limit = time_limit
    if (present(iterations)) o%iterations = int(iterations, c_long)
    if (present(sync_interval)) o%sync_interval = int(sync_interval, c_long)
    if (present(bulk_synchronous)) o%bulk_synchronous = merge(1_c_int, 0_c_int, bulk_synchronous)
    if (present(end_on_convergence)) o%end_on_convergence = merge(1_c_int, 0_c_int, end_on_convergence)
    if (present(wait_for_load)) o%wait_for_load = merge(1_c_int, 0_c_int, wait_for_load)
    if (present(progress_thread)) o%progress_thread = merge(1_c_int, 0_c_int, progress_thread)
    if (present(virtual_load)) o%virtual_load = merge(1_c_int, 0_c_int, virtual_load)
    if (present(integer_load)) o%integer = merge(1_c_int, 0_c_int, integer_load)
    rc = c_create(int(comm%MPI_VAL, c_int), o, int(item_bytes, c_size_t), lb%handle)
    if (present(ierror)) ierror = rc
  end subroutine hetlb_diffusion_create

  ! Collective, before start: the balancer, 'diffusion', 'global' or 'hybrid' (docs/runtime.md, "Global
  ! steps"), and the program's declared number of iteration_done calls (total_iterations, 0: unknown).
  subroutine hetlb_diffusion_set_balancer(lb, balancer, ierror, total_iterations)
    type(hetlb_diffusion), intent(in) :: lb
    character(len=*), intent(in) :: balancer
    integer, optional, intent(out) :: ierror
    integer, optional, intent(in) :: total_iterations
    integer(c_long) :: total
    integer :: rc
    total = 0
    if (present(total_iterations)) total = int(total_iterations, c_long)
    rc = c_set_balancer(lb%handle, trim(balancer) // c_null_char, total)
    if (present(ierror)) ierror = rc
  end subroutine hetlb_diffusion_set_balancer

  ! Local, before start: one item (item_bytes bytes of payload).
  subroutine hetlb_diffusion_add(lb, id, payload, ierror)
    type(hetlb_diffusion), intent(in) :: lb
    integer(c_int64_t), intent(in) :: id
    type(*), dimension(*), intent(in) :: payload
    integer, optional, intent(out) :: ierror
    integer :: rc
    rc = c_add(lb%handle, id, payload)
    if (present(ierror)) ierror = rc
  end subroutine hetlb_diffusion_add

  subroutine hetlb_diffusion_start(lb, ierror)  ! collective
    type(hetlb_diffusion), intent(in) :: lb
    integer, optional, intent(out) :: ierror
    integer :: rc
    rc = c_start(lb%handle)
    if (present(ierror)) ierror = rc
  end subroutine hetlb_diffusion_start

  integer function hetlb_diffusion_size(lb)
    type(hetlb_diffusion), intent(in) :: lb
    hetlb_diffusion_size = int(c_size(lb%handle))
  end function hetlb_diffusion_size

  ! The id of item i (1 to hetlb_diffusion_size); -1 and ierror = HETLB_DIFFUSION_ERR_ARG out of range.
  integer(c_int64_t) function hetlb_diffusion_id(lb, i, ierror)
    type(hetlb_diffusion), intent(in) :: lb
    integer, intent(in) :: i
    integer, optional, intent(out) :: ierror
    type(c_ptr) :: item
    integer :: rc
    rc = c_get(lb%handle, int(i - 1, c_size_t), hetlb_diffusion_id, item)
    if (rc /= 0) hetlb_diffusion_id = -1
    if (present(ierror)) ierror = rc
  end function hetlb_diffusion_id

  ! Item costs (docs/runtime.md, "Item costs"): a rank's load is the sum of its items' costs (> 0; 1
  ! unless set). Before start or between iteration_done calls; a cost travels with its item.
  subroutine hetlb_diffusion_set_cost(lb, id, cost, ierror)
    type(hetlb_diffusion), intent(in) :: lb
    integer(c_int64_t), intent(in) :: id
    double precision, intent(in) :: cost
    integer, optional, intent(out) :: ierror
    integer :: rc
    rc = c_set_cost(lb%handle, id, real(cost, c_double))
    if (present(ierror)) ierror = rc
  end subroutine hetlb_diffusion_set_cost

  ! The costs of all items held, in item order (size(costs) == hetlb_diffusion_size(lb)).
  subroutine hetlb_diffusion_set_costs(lb, costs, ierror)
    type(hetlb_diffusion), intent(in) :: lb
    double precision, dimension(:), intent(in) :: costs
    integer, optional, intent(out) :: ierror
    real(c_double), dimension(size(costs)) :: c
    integer :: rc
    c = real(costs, c_double)
    rc = c_set_costs(lb%handle, c, int(size(costs), c_size_t))
    if (present(ierror)) ierror = rc
  end subroutine hetlb_diffusion_set_costs

  ! The cost of item i (1 to hetlb_diffusion_size); -1 and ierror = HETLB_DIFFUSION_ERR_ARG out of range.
  double precision function hetlb_diffusion_cost(lb, i, ierror)
    type(hetlb_diffusion), intent(in) :: lb
    integer, intent(in) :: i
    integer, optional, intent(out) :: ierror
    real(c_double) :: c
    integer :: rc
    rc = c_cost(lb%handle, int(i - 1, c_size_t), c)
    hetlb_diffusion_cost = -1
    if (rc == 0) hetlb_diffusion_cost = c
    if (present(ierror)) ierror = rc
  end function hetlb_diffusion_cost

  ! This rank's load: the sum of its items' costs.
  double precision function hetlb_diffusion_load(lb)
    type(hetlb_diffusion), intent(in) :: lb
    hetlb_diffusion_load = c_load(lb%handle)
  end function hetlb_diffusion_load

  ! Every rank's items, summed at start (0 before).
  integer function hetlb_diffusion_total_items(lb)
    type(hetlb_diffusion), intent(in) :: lb
    hetlb_diffusion_total_items = int(c_total_items(lb%handle))
  end function hetlb_diffusion_total_items

  ! Gather and scatter by id (docs/runtime.md, "Gather and scatter by id"): collective, in the
  ! bulk-synchronous mode between iteration_done calls, or once the run has ended. local: one payload of
  ! item_bytes bytes per item held, in item order (items 1, 2, ...). At root (default 0), root_out
  ! receives hetlb_diffusion_total_items payloads in ascending id order (ids 0..N-1: id k at position
  ! k + 1) and root_ids those ids; elsewhere both may be absent. ierror: the same on every rank.
  subroutine hetlb_diffusion_gather_by_id(lb, local, item_bytes, root_out, ierror, root, root_ids)
    type(hetlb_diffusion), intent(in) :: lb
    type(*), dimension(*), intent(in) :: local
    integer, intent(in) :: item_bytes
    type(*), dimension(*), intent(inout), optional :: root_out
    integer, optional, intent(out) :: ierror
    integer, optional, intent(in) :: root
    integer(c_int64_t), dimension(*), intent(inout), optional :: root_ids
    integer :: rc
    rc = c_gather_by_id(lb%handle, local, int(item_bytes, c_size_t), root_out, root_ids, root_or_0(root))
    if (present(ierror)) ierror = rc
  end subroutine hetlb_diffusion_gather_by_id

  ! The same for the balancer's own items (item_bytes: their size, as given to hetlb_diffusion_create).
  subroutine hetlb_diffusion_gather_items(lb, item_bytes, root_out, ierror, root, root_ids)
    type(hetlb_diffusion), intent(in) :: lb
    integer, intent(in) :: item_bytes
    type(*), dimension(*), intent(inout), optional :: root_out
    integer, optional, intent(out) :: ierror
    integer, optional, intent(in) :: root
    integer(c_int64_t), dimension(*), intent(inout), optional :: root_ids
    integer :: rc
    rc = c_gather_by_id(lb%handle, item_bytes=int(item_bytes, c_size_t), root_out=root_out, root_ids=root_ids, &
                        root=root_or_0(root))
    if (present(ierror)) ierror = rc
  end subroutine hetlb_diffusion_gather_items

  ! root_in (at root, in ascending id order) to the ranks holding the ids: into local, in item order.
  subroutine hetlb_diffusion_scatter_by_id(lb, root_in, item_bytes, local, ierror, root)
    type(hetlb_diffusion), intent(in) :: lb
    type(*), dimension(*), intent(in), optional :: root_in
    integer, intent(in) :: item_bytes
    type(*), dimension(*), intent(inout) :: local
    integer, optional, intent(out) :: ierror
    integer, optional, intent(in) :: root
    integer :: rc
    rc = c_scatter_by_id(lb%handle, root_in, int(item_bytes, c_size_t), local, root_or_0(root))
    if (present(ierror)) ierror = rc
  end subroutine hetlb_diffusion_scatter_by_id

  ! The same into the balancer's own items.
  subroutine hetlb_diffusion_scatter_items(lb, root_in, item_bytes, ierror, root)
    type(hetlb_diffusion), intent(in) :: lb
    type(*), dimension(*), intent(in), optional :: root_in
    integer, intent(in) :: item_bytes
    integer, optional, intent(out) :: ierror
    integer, optional, intent(in) :: root
    integer :: rc
    rc = c_scatter_by_id(lb%handle, root_in=root_in, item_bytes=int(item_bytes, c_size_t), root=root_or_0(root))
    if (present(ierror)) ierror = rc
  end subroutine hetlb_diffusion_scatter_items

  integer(c_int) function root_or_0(root)
    integer, optional, intent(in) :: root
    root_or_0 = 0
    if (present(root)) root_or_0 = int(root, c_int)
  end function root_or_0

  ! The bytes of item i as a C pointer (c_f_pointer it to the item's type); c_null_ptr out of range.
  type(c_ptr) function hetlb_diffusion_item(lb, i, ierror)
    type(hetlb_diffusion), intent(in) :: lb
    integer, intent(in) :: i
    integer, optional, intent(out) :: ierror
    integer(c_int64_t) :: id
    integer :: rc
    rc = c_get(lb%handle, int(i - 1, c_size_t), id, hetlb_diffusion_item)
    if (rc /= 0) hetlb_diffusion_item = c_null_ptr
    if (present(ierror)) ierror = rc
  end function hetlb_diffusion_item

  ! End of a computing iteration; running = .false. once the run has ended. compute_seconds: this rank's
  ! computing time in the iteration (the speed estimate).
  subroutine hetlb_diffusion_iteration_done(lb, running, compute_seconds, ierror)
    type(hetlb_diffusion), intent(in) :: lb
    logical, intent(out) :: running
    double precision, optional, intent(in) :: compute_seconds
    integer, optional, intent(out) :: ierror
    integer(c_int) :: r
    integer :: rc
    r = 0
    if (present(compute_seconds)) then
      rc = c_iteration_done_timed(lb%handle, real(compute_seconds, c_double), r)
    else
      rc = c_iteration_done(lb%handle, r)
    end if
    running = r /= 0
    if (present(ierror)) ierror = rc
  end subroutine hetlb_diffusion_iteration_done

  subroutine hetlb_diffusion_progress(lb, ierror)
    type(hetlb_diffusion), intent(in) :: lb
    integer, optional, intent(out) :: ierror
    integer :: rc
    rc = c_progress(lb%handle)
    if (present(ierror)) ierror = rc
  end subroutine hetlb_diffusion_progress

  subroutine hetlb_diffusion_stop(lb, ierror)  ! collective
    type(hetlb_diffusion), intent(in) :: lb
    integer, optional, intent(out) :: ierror
    integer :: rc
    rc = c_stop(lb%handle)
    if (present(ierror)) ierror = rc
  end subroutine hetlb_diffusion_stop

  ! This rank's speed: given, or measured (0 before the first measurement).
  double precision function hetlb_diffusion_speed(lb)
    type(hetlb_diffusion), intent(in) :: lb
    hetlb_diffusion_speed = c_speed(lb%handle)
  end function hetlb_diffusion_speed

  ! Collective; lb becomes null, and freeing a null balancer does nothing.
  subroutine hetlb_diffusion_free(lb)
    type(hetlb_diffusion), intent(inout) :: lb
    call c_free(lb%handle)
  end subroutine hetlb_diffusion_free

  ! The one-line reason of the last error on this thread ('' after a success).
  function hetlb_diffusion_last_error() result(message)
    character(len=:), allocatable :: message
    type(c_ptr) :: p
    character(kind=c_char), pointer :: chars(:)
    integer :: n, i
    p = c_last_error()
    n = 0
    if (c_associated(p)) n = int(c_strlen(p))
    allocate(character(len=n) :: message)
    if (n == 0) return
    call c_f_pointer(p, chars, [n])
    do i = 1, n
      message(i:i) = chars(i)
    end do
  end function hetlb_diffusion_last_error

end module hetlb_diffusion_f08
