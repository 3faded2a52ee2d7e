"""The constraint table runner: one module per concept.

- :mod:`~axiometer.runner.grids`: the parameter settings a table checks a
  metric at (:func:`parameter_grid`, :data:`TABLE_GRID_EXTRAS`) and how a
  cell's verdict depends on them (:func:`describe_grid`);
- :mod:`~axiometer.runner.tasks`: the units of work, one class per task
  (:class:`~axiometer.runner.tasks.CheckTask`, ``ExplainTask``,
  ``BoundaryTask``), each with its typed result;
- :mod:`~axiometer.runner.executors` and :mod:`~axiometer.runner.supervisor`:
  where tasks run, each a :class:`concurrent.futures.Executor` (this process,
  local worker processes, supervised workers for a metric author's metric, a
  Dask cluster);
- :mod:`~axiometer.runner.pool`: which executor runs each task, results handed
  to their handlers, progress and Ctrl-C;
- :mod:`~axiometer.runner.table`: :func:`run_table`, its rows (metrics
  resolved by :func:`axiometer.metrics.resolve.resolve`) and columns
  (:func:`resolve_constraints`, :func:`default_columns`).
"""

from axiometer.runner.grids import TABLE_GRID_EXTRAS, describe_grid, parameter_grid
from axiometer.runner.table import OTHER_MODE, ROW_SETS, default_columns, resolve_constraints, run_table

__all__ = ["run_table", "parameter_grid", "describe_grid", "resolve_constraints", "default_columns",
           "TABLE_GRID_EXTRAS", "OTHER_MODE", "ROW_SETS"]
