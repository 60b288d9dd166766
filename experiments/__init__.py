"""Code that makes the pages' records: long runs, keyed on the code they run
(each file says what it writes, and its `make` target). A record maker measures
nothing of the site itself: what measures time and size is in benchmarks/."""
