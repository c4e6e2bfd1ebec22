/* A shared library without hetlb_strategy_entry (refused when loaded). */
int hetlb_something_else(void) { return 0; }
