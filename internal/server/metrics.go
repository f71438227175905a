package server

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"sortie/internal/match"
)

// metrics are what /metrics shows, in the Prometheus text format.
type metrics struct {
	reg        *prometheus.Registry
	created    prometheus.Counter
	sockets    *prometheus.GaugeVec
	records    *prometheus.CounterVec
	actions    *prometheus.CounterVec
	latency    prometheus.Histogram
	commit     prometheus.Histogram
	batch      prometheus.Histogram
	refusedMsg *prometheus.CounterVec
	limited    *prometheus.CounterVec
	busy       prometheus.Counter
	// Several nodes.
	followed  prometheus.Counter
	fenced    prometheus.Counter
	acquired  prometheus.Counter
	forwarded *prometheus.CounterVec
	forwardT  *prometheus.HistogramVec
}

func newMetrics() *metrics {
	reg := prometheus.NewRegistry()
	m := &metrics{
		reg: reg,
		created: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sortie_matches_created_total", Help: "Matches created.",
		}),
		sockets: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "sortie_sockets", Help: "Open match sockets, by audience (seat or spectator).",
		}, []string{"audience"}),
		records: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sortie_records_total", Help: "Records appended to match logs, by what made them (human, bot, clock).",
		}, []string{"source"}),
		actions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sortie_client_actions_total", Help: "Actions sent by clients, by result (accepted or the refusal code).",
		}, []string{"result"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "sortie_action_seconds",
			Help:    "Time from a client's action reaching the server to its acknowledgement (stored and broadcast).",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
		}),
		commit: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "sortie_store_commit_seconds",
			Help:    "Duration of the store's write transactions (group commits).",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25},
		}),
		batch: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "sortie_store_batch_writes",
			Help:    "Writes sharing one store transaction.",
			Buckets: []float64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512},
		}),
		refusedMsg: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sortie_refused_messages_total", Help: "Socket messages refused before reaching a match, by code.",
		}, []string{"code"}),
		limited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sortie_limited_total", Help: "Requests and connections refused by a limit on a client or on everyone, by code.",
		}, []string{"code"}),
		busy: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sortie_bot_busy_total", Help: "Decisions of searching (hard) bots made without searching: the node's budget of searches was taken.",
		}),
		followed: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sortie_sockets_followed_total",
			Help: "Fresh snapshots sent to open sockets whose match moved to another node, or whose messages from other nodes may have been missed.",
		}),
		fenced: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sortie_fenced_total",
			Help: "Writes the store refused because the match's lease had passed to another node (fencing): each stops the match on this node.",
		}),
		acquired: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sortie_leases_acquired_total", Help: "Match leases this node took (creations, matches nobody ran, its own after a restart).",
		}),
		forwarded: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sortie_forwarded_total",
			Help: "Requests sent to the node that runs a match, by request and result (ok, refused, moved, gone, unreachable).",
		}, []string{"op", "result"}),
		forwardT: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "sortie_forward_seconds",
			Help:    "Round trip of the requests sent to the node that runs a match, by request.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 5},
		}, []string{"op"}),
	}
	reg.MustRegister(m.created, m.sockets, m.records, m.actions, m.latency, m.commit, m.batch, m.refusedMsg, m.limited, m.busy,
		m.followed, m.fenced, m.acquired, m.forwarded, m.forwardT,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// watch adds the gauges read from the manager at each scrape.
func (m *metrics) watch(mgr *match.Manager) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "sortie_matches_live", Help: "Matches in memory on this server (open, running, or finished and still watched).",
	}, func() float64 { return float64(mgr.Live()) }))
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "sortie_matches_waiting", Help: "Matches waiting for the store to save a write (it cannot save now).",
	}, func() float64 { return float64(mgr.Waiting()) }))
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// hooks connects the match manager to the metrics, and tells loaded and
// ended of the matches that start and stop counting for their clients.
func (m *metrics) hooks(ended, loaded func(id, owner string)) match.Hooks {
	return match.Hooks{
		Ended:    ended,
		Loaded:   loaded,
		Busy:     m.busy.Inc,
		Fenced:   m.fenced.Inc,
		Acquired: m.acquired.Inc,
		Forwarded: func(op, result string, d time.Duration) {
			m.forwarded.WithLabelValues(op, result).Inc()
			m.forwardT.WithLabelValues(op).Observe(d.Seconds())
		},
		Recorded: func(source string) { m.records.WithLabelValues(source).Inc() },
		Handled: func(code string, d time.Duration) {
			if code == "" {
				code = "accepted"
				m.latency.Observe(d.Seconds())
			}
			m.actions.WithLabelValues(code).Inc()
		},
	}
}

// onCommit is the store's hook.
func (m *metrics) onCommit(writes int, d time.Duration) {
	m.commit.Observe(d.Seconds())
	m.batch.Observe(float64(writes))
}
