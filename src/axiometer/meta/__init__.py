"""The seed papers' meta-evaluation of metrics on a campaign of runs.

One concept per module:

- :mod:`~axiometer.meta.discriminative_power`: how many run pairs a metric
  tells apart at 95 % and 99 % (Türkmen et al. 2023, section 4.3);
- :mod:`~axiometer.meta.stability`: how stable its pairwise verdicts are
  when half the topics are drawn at random (Türkmen et al., section 4.4);
- :mod:`~axiometer.meta.rank_correlation`: Kendall's tau-b and tau-AP
  (Yilmaz et al. 2008) between two metrics' run orderings, and tau along a
  parameter (Türkmen et al., Fig. 2);
- :mod:`~axiometer.meta.simulate`: the SIGIR 2018 simulated scenarios
  (Amigó et al., section 6.3) as seeded campaign transformations;
- :mod:`~axiometer.meta.evaluation`: all of it, with Metric Unanimity
  (:mod:`axiometer.unanimity`), for a list of metrics.
"""

from axiometer.meta.discriminative_power import DiscriminativePower, discriminative_power
from axiometer.meta.evaluation import MetaResult, MetricMeta, Sweep, meta_evaluate
from axiometer.meta.rank_correlation import (RankCorrelation, TauCurve, TauPoint, rank_correlation,
                                             rank_correlations, tau_ap, tau_curve)
from axiometer.meta.simulate import SCENARIOS, Simulation, simulate
from axiometer.meta.stability import Stability, stability, topic_samples

__all__ = ["DiscriminativePower", "discriminative_power", "MetaResult", "MetricMeta", "Sweep", "meta_evaluate",
           "RankCorrelation", "TauCurve", "TauPoint", "rank_correlation", "rank_correlations", "tau_ap",
           "tau_curve", "SCENARIOS", "Simulation", "simulate", "Stability", "stability", "topic_samples"]
