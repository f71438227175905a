// Package notify tells players what they would want to know while they are
// away: "your turn" (grouped: one notification names every match waiting
// for them), a seat a friend keeps for them, the end of a match they are
// in; by Web Push on the devices they chose and by e-mail (each time, or in
// a daily digest), in their language, outside their quiet hours.
//
// Each notification is a job of the store (kind [JobKind], keyed by the
// account and what happened, so that the same event queued twice is one
// job): it survives a restart, and on several nodes one node sends it. It
// is sent after a delay, and only if it still holds then (the seat still
// waits for its player, who is still away; the invitation still stands).
//
// Exactly once, as far as the outside world allows: a node that dies
// between posting a push and marking its job done leaves its claim to
// expire, and the job is sent again by another node, under the same Topic
// (RFC 8030) and tag. A push service replaces a message of the same topic
// that it has not delivered yet, and the browser shows a notification of
// the same tag in place of the one shown: the player is told once. An
// e-mail sent again carries the same Message-ID. docs/api.md,
// "Notifications", says so for operators.
//
// The package never names anything a seat may not know: a notification
// says the game, the players' names and counts, never a view.
package notify

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"sortie/engine"
	"sortie/internal/account"
	"sortie/internal/match"
	"sortie/internal/store"
)

// JobKind is the kind of the notifications' jobs.
const JobKind = "notify"

// Store is what the notifier keeps and reads: its jobs, the subscriptions
// and settings, the accounts with their seats and invitations.
type Store interface {
	store.Jobs
	store.Notifications
	store.Accounts
}

// Matches tells where a match stands, wherever it runs
// (match.Manager.Summary).
type Matches interface {
	Summary(ctx context.Context, id string) (match.Summary, error)
}

// Mailer sends one e-mail with its extra header fields
// (account.SMTP.SendWith).
type Mailer interface {
	SendWith(ctx context.Context, to, subject, text string, x account.Extra) error
}

// Config sets up a [Notifier].
type Config struct {
	Store   Store
	Matches Matches
	Games   []engine.Game
	// PublicURL is where players reach the server: the links lead there.
	PublicURL *url.URL
	// Mailer sends the e-mails; nil: none.
	Mailer Mailer
	// Node names this node in the jobs it claims.
	Node string
	// Delay is how long after the event a notification is sent (if it
	// still holds): a minute if zero.
	Delay time.Duration
	// TTL is how long a push service keeps a push it could not deliver:
	// 12 hours if zero.
	TTL time.Duration
	// PushServices is the allow-list of push services' hosts;
	// nil: DefaultPushServices.
	PushServices PushServices
	// Senders is how many notifications the node sends at once: 4 if
	// zero.
	Senders int
	// Claim is how long a node holds a notification it sends before
	// another may take it over: 30 s if zero.
	Claim time.Duration
	// Poll is how often an idle sender looks for notifications due: a
	// second if zero.
	Poll time.Duration
	// Retain is how long notifications sent are remembered (an event told
	// again within it is not sent again): 8 days if zero.
	Retain time.Duration
	Logger *slog.Logger
	// Flaws plant flaws, for the tests that show their checks catch them;
	// always zero outside those tests.
	Flaws Flaws
}

// Flaws are the flaws a test may plant (see Config.Flaws).
type Flaws struct {
	NoTopic     bool // pushes without a Topic: a push sent again is a second one
	NoAwayCheck bool // "your turn" sent to players who are back at the table
	NoGrouping  bool // one push a match
}

// Notifier queues and sends the notifications of one node.
type Notifier struct {
	c        Config
	st       Store
	log      *slog.Logger
	push     *pusher
	unsubKey []byte
	names    map[string]engine.Text   // each game's name
	timing   map[string]engine.Timing // and how it uses time

	mu      sync.Mutex
	queue   []queued // events to queue as jobs
	kick    chan struct{}
	senders []*sender
	freed   chan struct{}            // a sender finished a job
	subs    map[string]*rate.Limiter // subscriptions made lately, by account
	stop    context.CancelFunc
	ctx     context.Context
	wg      sync.WaitGroup
	started bool
}

// queued is an event on its way to the store.
type queued struct {
	key, match string
	due        time.Time
}

// New makes a notifier: it reads (or makes, on the first node) the VAPID
// keys and the key of unsubscribe links from the store.
func New(ctx context.Context, c Config) (*Notifier, error) {
	if c.Store == nil || c.Matches == nil || c.PublicURL == nil {
		return nil, errors.New("notify: a store, the matches and the public URL are required")
	}
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&c.Delay, time.Minute}, {&c.TTL, 12 * time.Hour}, {&c.Claim, 30 * time.Second}, {&c.Poll, time.Second}, {&c.Retain, 8 * 24 * time.Hour}} {
		if *d.v == 0 {
			*d.v = d.def
		}
	}
	if c.Senders <= 0 {
		c.Senders = 4
	}
	if c.PushServices == nil {
		c.PushServices = DefaultPushServices
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Node == "" {
		c.Node = "local"
	}
	n := &Notifier{c: c, st: c.Store, log: c.Logger, kick: make(chan struct{}, 1), freed: make(chan struct{}, 1),
		subs: map[string]*rate.Limiter{}, names: map[string]engine.Text{}, timing: map[string]engine.Timing{}}
	for range c.Senders {
		n.senders = append(n.senders, &sender{wake: make(chan struct{}, 1), told: map[string]toldTurn{}})
	}
	for _, g := range c.Games {
		info := g.Info()
		n.names[info.ID], n.timing[info.ID] = info.Name, info.Timing
	}
	keys, err := vapidKeys(ctx, c.Store)
	if err != nil {
		return nil, fmt.Errorf("notify: the VAPID keys: %w", err)
	}
	proposal := make([]byte, 32)
	_, _ = rand.Read(proposal)
	if n.unsubKey, err = c.Store.Secret(ctx, "unsubscribe", proposal); err != nil {
		return nil, fmt.Errorf("notify: the key of unsubscribe links: %w", err)
	}
	subject := c.PublicURL.String()
	if c.PublicURL.Scheme != "https" {
		subject = "sortie@" + c.PublicURL.Hostname() // (webpush-go makes it a mailto:)
	}
	n.push = &pusher{keys: keys, services: c.PushServices, client: newPushClient(), subject: subject, ttl: c.TTL, noTopic: c.Flaws.NoTopic}
	n.ctx, n.stop = context.WithCancel(context.Background())
	return n, nil
}

// PublicKey is the VAPID public key, base64url: the applicationServerKey
// browsers subscribe with.
func (n *Notifier) PublicKey() string { return n.push.keys.Public }

// CheckEndpoint says why a subscription's endpoint is refused, or nil.
func (n *Notifier) CheckEndpoint(endpoint string) error { return n.push.services.Check(endpoint) }

// Delay is how long after an event its notification is sent.
func (n *Notifier) Delay() time.Duration { return n.c.Delay }

// Start starts the node's senders and the queue of events.
func (n *Notifier) Start() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.started || n.ctx.Err() != nil {
		return
	}
	n.started = true
	n.wg.Add(3 + n.c.Senders)
	go n.enqueueLoop()
	go n.pruneLoop()
	go n.claimLoop()
	for _, s := range n.senders {
		go n.sendLoop(s)
	}
}

// Stop stops the senders, once the notifications they are sending are
// sent, and queues the events still waiting (for at most a few seconds).
func (n *Notifier) Stop() {
	n.stop()
	n.wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	n.flush(ctx)
}

// Notice takes an event of a match (match.Config.Notice): it is queued in
// the store, to be sent after the delay if it still holds. It never
// blocks.
func (n *Notifier) Notice(x match.Notice) {
	var key string
	switch x.Kind {
	case match.NoticeTurn:
		key = fmt.Sprintf("%s:turn:%s:%d:%d", x.Account, x.Match, x.Seat, x.Turn)
	case match.NoticeEnd:
		key = fmt.Sprintf("%s:end:%s:%d", x.Account, x.Match, x.Seat)
	default:
		return
	}
	n.add(queued{key: key, match: x.Match, due: time.Now().Add(n.c.Delay)})
}

// Invited takes an invitation made: the invited player is told after the
// delay, if it still stands.
func (n *Notifier) Invited(inv store.Invitation) {
	n.add(queued{key: fmt.Sprintf("%s:invite:%s:%d:%d", inv.Account, inv.Match, inv.Seat, inv.Created.UnixMilli()),
		match: inv.Match, due: time.Now().Add(n.c.Delay)})
}

func (n *Notifier) add(q queued) {
	n.mu.Lock()
	n.queue = append(n.queue, q)
	n.mu.Unlock()
	select {
	case n.kick <- struct{}{}:
	default:
	}
}

// enqueueLoop stores the events as jobs as they come.
func (n *Notifier) enqueueLoop() {
	defer n.wg.Done()
	for {
		select {
		case <-n.ctx.Done():
			return
		case <-n.kick:
		}
		n.flush(n.ctx)
	}
}

// flush stores the events queued, a few at once (each waits for its
// commit, which a group of them shares).
func (n *Notifier) flush(ctx context.Context) {
	for {
		n.mu.Lock()
		batch := n.queue
		n.queue = nil
		n.mu.Unlock()
		if len(batch) == 0 {
			return
		}
		sem := make(chan struct{}, 16)
		var wg sync.WaitGroup
		for _, q := range batch {
			sem <- struct{}{}
			wg.Add(1)
			go func() {
				defer func() { <-sem; wg.Done() }()
				for try := 0; ; try++ {
					_, err := n.st.EnqueueJob(ctx, JobKind, q.key, q.match, q.due)
					if err == nil || ctx.Err() != nil || try == 5 {
						if err != nil {
							n.log.Warn("a notification could not be queued", "key", q.key, "err", err)
						}
						return
					}
					time.Sleep(time.Duration(200<<try) * time.Millisecond)
				}
			}()
		}
		wg.Wait()
	}
}

// pruneLoop forgets the notifications sent longer ago than Retain, every
// hour.
func (n *Notifier) pruneLoop() {
	defer n.wg.Done()
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		for {
			k, err := n.st.PruneJobs(n.ctx, JobKind, time.Now().Add(-n.c.Retain), 1000)
			if err != nil || k < 1000 {
				break
			}
		}
		select {
		case <-n.ctx.Done():
			return
		case <-t.C:
		}
	}
}

// claimLoop claims the notifications due and hands each to the sender of
// its account (the same sender for an account's jobs, so that its turns
// claimed one after the other go out as one push); it claims no more while
// the senders have work waiting, so that no claim runs out in a queue.
func (n *Notifier) claimLoop() {
	defer n.wg.Done()
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-n.ctx.Done():
			for _, s := range n.senders {
				close(s.wake)
			}
			return
		case <-t.C:
		case <-n.freed:
		}
		for n.ctx.Err() == nil && n.waitingJobs() < 2*len(n.senders) {
			j, err := n.st.ClaimJob(n.ctx, JobKind, n.c.Node, n.c.Claim)
			if err != nil {
				if !errors.Is(err, store.ErrNotFound) && n.ctx.Err() == nil {
					n.log.Warn("cannot claim a notification", "err", err)
				}
				break
			}
			acct, _, _ := strings.Cut(j.Key, ":")
			h := fnv.New32a()
			h.Write([]byte(acct))
			n.senders[h.Sum32()%uint32(len(n.senders))].give(j)
		}
		t.Reset(n.c.Poll)
	}
}

// waitingJobs counts the jobs claimed that no sender took up yet.
func (n *Notifier) waitingJobs() int {
	k := 0
	for _, s := range n.senders {
		s.mu.Lock()
		k += len(s.queue)
		s.mu.Unlock()
	}
	return k
}

// sender sends, one after the other, the notifications of the accounts
// it is given.
type sender struct {
	mu    sync.Mutex
	queue []*store.Job
	wake  chan struct{}
	// told is, by account, the last "your turn" this sender sent: when,
	// and the matches it named. A turn claimed meanwhile that it named
	// is told already.
	told map[string]toldTurn
}

type toldTurn struct {
	at      time.Time
	matches []string
}

// toldAlready reports whether the sender's last "your turn" to acct,
// sent after the job's event, named match.
func (s *sender) toldAlready(acct, match string, event time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.told[acct]
	return ok && t.at.After(event) && slices.Contains(t.matches, match)
}

// tell notes a "your turn" sent to acct, naming matches.
func (s *sender) tell(acct string, matches []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	if len(s.told) > 1000 {
		for k, t := range s.told {
			if now.Sub(t.at) > 10*time.Minute {
				delete(s.told, k)
			}
		}
	}
	s.told[acct] = toldTurn{at: now, matches: matches}
}

func (s *sender) give(j *store.Job) {
	s.mu.Lock()
	s.queue = append(s.queue, j)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// take returns the next job, or nil.
func (s *sender) take() *store.Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue) == 0 {
		return nil
	}
	j := s.queue[0]
	s.queue = s.queue[1:]
	return j
}

// takeAll takes the jobs waiting whose key begins with prefix.
func (s *sender) takeAll(prefix string) []*store.Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*store.Job
	kept := s.queue[:0]
	for _, j := range s.queue {
		if strings.HasPrefix(j.Key, prefix) {
			out = append(out, j)
		} else {
			kept = append(kept, j)
		}
	}
	clear(s.queue[len(kept):])
	s.queue = kept
	return out
}

// sendLoop sends what the sender is given.
func (n *Notifier) sendLoop(s *sender) {
	defer n.wg.Done()
	for range s.wake {
		for j := s.take(); j != nil; j = s.take() {
			n.run(s, j)
			select {
			case n.freed <- struct{}{}:
			default:
			}
		}
	}
	// Stopping: what was claimed and not sent goes back.
	for j := s.take(); j != nil; j = s.take() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_ = n.st.DeferJob(ctx, j, j.Created)
		cancel()
	}
}

// outcome is what became of a group of jobs.
type outcome struct {
	jobs   []*store.Job
	result string    // done: what was done
	later  time.Time // not zero: put off until then
	err    error     // failed this time: tried again later
}

// run sends the notification of job j (and of the jobs it claims with it),
// and marks them done, puts them off, or gives them back.
func (n *Notifier) run(s *sender, j *store.Job) {
	// Sending goes to its end even when the node stops: cut off, it would
	// be sent again by another node, once more.
	ctx, cancel := context.WithTimeout(context.Background(), n.c.Claim*2/3)
	defer cancel()
	o := n.handle(ctx, s, j)
	if len(o.jobs) == 0 {
		o.jobs = []*store.Job{j}
	}
	for _, jb := range o.jobs {
		var err error
		switch {
		case o.err != nil && jb.Tries >= 6:
			err = n.st.ReleaseJob(ctx, jb, o.err.Error(), true)
			n.log.Warn("a notification is given up", "key", jb.Key, "err", o.err)
		case o.err != nil:
			err = n.st.DeferJob(ctx, jb, time.Now().Add(time.Duration(jb.Tries*jb.Tries)*10*time.Second))
		case !o.later.IsZero():
			err = n.st.DeferJob(ctx, jb, o.later)
		default:
			err = n.st.CompleteJob(ctx, jb, []byte(o.result))
			n.log.Debug("notification", "key", jb.Key, "result", o.result)
		}
		if err != nil && !errors.Is(err, store.ErrFenced) {
			n.log.Warn("cannot mark a notification", "key", jb.Key, "err", err)
		}
	}
}

// handle does what job j says.
func (n *Notifier) handle(ctx context.Context, s *sender, j *store.Job) outcome {
	parts := strings.Split(j.Key, ":")
	if len(parts) < 2 {
		return outcome{result: "not a notification's key"}
	}
	a, err := n.st.Account(ctx, parts[0])
	if errors.Is(err, store.ErrNoAccount) {
		return outcome{result: "no such account"}
	}
	if err != nil {
		return outcome{err: err}
	}
	raw, err := n.st.NotifySettings(ctx, a.ID)
	if err != nil {
		return outcome{err: err}
	}
	set := readSettings(raw)
	switch {
	case parts[1] == "turn" && len(parts) == 5:
		return n.turn(ctx, s, j, a, set)
	case parts[1] == "invite" && len(parts) == 5:
		seat, _ := strconv.Atoi(parts[3])
		return n.invite(ctx, j, a, set, parts[2], seat)
	case parts[1] == "end" && len(parts) == 4:
		seat, _ := strconv.Atoi(parts[3])
		return n.end(ctx, j, a, set, parts[2], engine.Seat(seat))
	case parts[1] == "digest":
		return n.digest(ctx, a, set)
	}
	return outcome{result: "not a notification's key"}
}

// waitingMatch is a match waiting for an account's player.
type waitingMatch struct {
	sum    match.Summary
	others []string
}

// waiting returns the running matches waiting for account's player: one
// of their seats is to act, not played by its bot, and no socket of theirs
// is open on it.
func (n *Notifier) waiting(ctx context.Context, acct string) ([]waitingMatch, error) {
	held, err := n.st.HeldSeats(ctx, acct, store.Filter{Statuses: []store.Status{store.Running}, Limit: 200})
	if err != nil {
		return nil, err
	}
	var out []waitingMatch
	for i, h := range held {
		if i > 0 && held[i-1].Match.ID == h.Match.ID {
			continue // (a match's seats come together: it is looked at once)
		}
		sum, err := n.c.Matches.Summary(ctx, h.Match.ID)
		if err != nil || sum.Status != store.Running || !sum.Live || !n.waitsForPlayers(sum) {
			continue
		}
		for _, s := range sum.Seats {
			if s.Account != acct || !slices.Contains(sum.Actors, s.Seat) || s.PlayedBy == match.Bot || s.Connected && !n.c.Flaws.NoAwayCheck {
				continue
			}
			out = append(out, waitingMatch{sum: sum, others: n.others(sum, acct)})
			break
		}
	}
	return out, nil
}

// others are the names of the seats of sum not held by acct.
func (n *Notifier) others(sum match.Summary, acct string) []string {
	var out []string
	for _, s := range sum.Seats {
		if s.Account == acct {
			continue
		}
		out = append(out, s.Name)
	}
	return out
}

// named fills in the names a seat's player did not give.
func named(t *texts, names []string) []string {
	out := make([]string, len(names))
	for i, s := range names {
		out[i] = s
		if s == "" {
			out[i] = t.guest
		}
	}
	return out
}

// gameName is a game's name in lang.
func (n *Notifier) gameName(game, lang string) string {
	if name := n.names[game][lang]; name != "" {
		return name
	}
	if name := n.names[game]["en"]; name != "" {
		return name
	}
	return game
}

// waitsForPlayers reports whether a match waits for a player away until
// they come back, so that telling them it is their turn is worth it: a
// table played by correspondence, or one with neither a move limit nor a
// bot taking an absent seat over. A live table's move limit (90 s by
// default) has the seat's bot play before a player told could come; a
// real-time game has no turns.
func (n *Notifier) waitsForPlayers(sum match.Summary) bool {
	if n.timing[sum.Game] == engine.RealTime {
		return false
	}
	return correspondence(sum) || sum.Settings.MoveLimitMs == 0 && sum.Settings.TakeoverAfterMs == 0
}

// correspondence reports whether a match is played by correspondence: its
// settings say so ("clock": "correspondence"), or it gives a day or more
// for a move.
func correspondence(sum match.Summary) bool {
	b, _ := json.Marshal(sum.Settings)
	var s struct {
		Clock       string `json:"clock"`
		MoveLimitMs int64  `json:"move_limit_ms"`
	}
	_ = json.Unmarshal(b, &s)
	return s.Clock == "correspondence" || s.MoveLimitMs >= (24*time.Hour).Milliseconds()
}

// turn sends "your turn": once for every match now waiting for the
// player, whose turns it claims together.
func (n *Notifier) turn(ctx context.Context, s *sender, j *store.Job, a *store.Account, set Settings) outcome {
	group := []*store.Job{j}
	if !n.c.Flaws.NoGrouping {
		group = append(group, s.takeAll(a.ID+":turn:")...)
		more, err := n.st.ClaimJobs(ctx, JobKind, a.ID+":turn:", n.c.Node, n.c.Claim, 100)
		if err != nil {
			return outcome{jobs: group, err: err}
		}
		group = append(group, more...)
	}
	waiting, err := n.waiting(ctx, a.ID)
	if err != nil {
		return outcome{jobs: group, err: err}
	}
	// The turns of the group that still wait, and were not named by the
	// last push of this sender (those claimed while it was sent).
	var due []waitingMatch
	for _, jb := range group {
		id := strings.Split(jb.Key, ":")[2]
		if s.toldAlready(a.ID, id, jb.Created.Add(-n.c.Delay)) && !n.c.Flaws.NoGrouping {
			continue
		}
		for _, w := range waiting {
			if w.sum.ID == id && !slices.ContainsFunc(due, func(d waitingMatch) bool { return d.sum.ID == id }) {
				due = append(due, w)
			}
		}
	}
	if len(due) == 0 {
		return outcome{jobs: group, result: "not waiting, or told"}
	}
	if end, quiet := set.quietUntil(time.Now()); quiet {
		return outcome{jobs: group, later: end}
	}
	t := textsOf(a.Lang)
	var done []string
	if set.Turn.Push {
		var p Payload
		if len(waiting) == 1 {
			w := waiting[0]
			p = Payload{Title: t.turnTitle(n.gameName(w.sum.Game, a.Lang)), Body: t.turnBody(named(t, w.others))}
		} else {
			var games []string
			for _, w := range waiting {
				games = append(games, n.gameName(w.sum.Game, a.Lang))
			}
			p = Payload{Title: t.turnManyTitle(len(waiting)), Body: t.turnManyBody(t.games(games))}
		}
		p.URL, p.Tag = "/play/"+due[0].sum.ID, "turn"
		sent, err := n.pushAll(ctx, a.ID, p, "turn")
		if err != nil {
			return outcome{jobs: group, err: err}
		}

		done = append(done, fmt.Sprintf("pushed to %d", sent))
	}
	// E-mail: the matches played by correspondence alone.
	var corr []waitingMatch
	dueCorr := false
	for _, w := range waiting {
		if correspondence(w.sum) {
			corr = append(corr, w)
			dueCorr = dueCorr || slices.ContainsFunc(due, func(d waitingMatch) bool { return d.sum.ID == w.sum.ID })
		}
	}
	if dueCorr && a.Email != "" && n.c.Mailer != nil {
		switch set.Turn.Email {
		case EmailEach:
			subject := t.turnManyTitle(len(corr))
			if len(corr) == 1 {
				subject = t.turnTitle(n.gameName(corr[0].sum.Game, a.Lang))
			}
			if err := n.mail(ctx, a, subject, n.turnLines(t, a.Lang, corr), j.Key); err != nil {
				return outcome{jobs: group, err: err}
			}
			done = append(done, "mailed")
		case EmailDigest:
			if err := n.queueDigest(ctx, a, set); err != nil {
				return outcome{jobs: group, err: err}
			}
			done = append(done, "in the digest")
		}
	}
	var told []string
	for _, w := range waiting {
		told = append(told, w.sum.ID)
	}
	s.tell(a.ID, told)
	return outcome{jobs: group, result: strings.Join(done, ", ")}
}

// turnLines are the lines of a mail that list matches waiting.
func (n *Notifier) turnLines(t *texts, lang string, ws []waitingMatch) []string {
	out := []string{t.mailTurn}
	for _, w := range ws {
		line := n.gameName(w.sum.Game, lang)
		if len(w.others) > 0 {
			line = t.with(line, t.list(named(t, w.others)))
		}
		out = append(out, "- "+line+"\u00a0: "+n.link("/play/"+w.sum.ID))
	}
	return out
}

// invite tells the player of a seat kept for them, if it still is.
func (n *Notifier) invite(ctx context.Context, j *store.Job, a *store.Account, set Settings, id string, seat int) outcome {
	invs, err := n.st.Invitations(ctx, a.ID)
	if err != nil {
		return outcome{err: err}
	}
	i := slices.IndexFunc(invs, func(inv store.Invitation) bool { return inv.Match == id && inv.Seat == seat })
	if i < 0 {
		return outcome{result: "no longer invited"}
	}
	sum, err := n.c.Matches.Summary(ctx, id)
	if err != nil || sum.Status.Over() {
		return outcome{result: "the match is over"}
	}
	if end, quiet := set.quietUntil(time.Now()); quiet {
		return outcome{later: end}
	}
	from := n.nameOf(ctx, invs[i].From)
	t := textsOf(a.Lang)
	game := n.gameName(sum.Game, a.Lang)
	var done []string
	if set.Invite.Push {
		p := Payload{Title: t.inviteTitle(game), Body: t.inviteBody(from), URL: "/play/" + id, Tag: "invite-" + id}
		sent, err := n.pushAll(ctx, a.ID, p, "invite:"+id+":"+strconv.Itoa(seat))
		if err != nil {
			return outcome{err: err}
		}
		done = append(done, fmt.Sprintf("pushed to %d", sent))
	}
	if a.Email != "" && n.c.Mailer != nil {
		switch set.Invite.Email {
		case EmailEach:
			lines := []string{t.mailInvites, "- " + t.with(game, from) + "\u00a0: " + n.link("/play/"+id)}
			if err := n.mail(ctx, a, t.inviteTitle(game), lines, j.Key); err != nil {
				return outcome{err: err}
			}
			done = append(done, "mailed")
		case EmailDigest:
			if err := n.queueDigest(ctx, a, set); err != nil {
				return outcome{err: err}
			}
			done = append(done, "in the digest")
		}
	}
	return outcome{result: strings.Join(done, ", ")}
}

// nameOf is an account's name ("" if it is gone).
func (n *Notifier) nameOf(ctx context.Context, id string) string {
	if a, err := n.st.Account(ctx, id); err == nil {
		return a.Name
	}
	return ""
}

// end tells the player that a match they are in ended, unless they were
// at the table.
func (n *Notifier) end(ctx context.Context, j *store.Job, a *store.Account, set Settings, id string, seat engine.Seat) outcome {
	sum, err := n.c.Matches.Summary(ctx, id)
	if err != nil {
		if me := match.AsError(err); me.Code == match.CodeUnknownMatch {
			return outcome{result: "the match is gone"}
		}
		return outcome{err: err}
	}
	if !sum.Status.Over() || int(seat) >= len(sum.Seats) || sum.Seats[seat].Account != a.ID {
		return outcome{result: "not an end of theirs"}
	}
	if sum.Live && sum.Seats[seat].Connected && !n.c.Flaws.NoAwayCheck {
		return outcome{result: "at the table"}
	}
	if end, quiet := set.quietUntil(time.Now()); quiet {
		return outcome{later: end}
	}
	t := textsOf(a.Lang)
	game := n.gameName(sum.Game, a.Lang)
	body := n.endBody(t, sum, a.ID)
	var done []string
	if set.End.Push {
		p := Payload{Title: t.endTitle(game), Body: body, URL: "/play/" + id, Tag: "end-" + id}
		sent, err := n.pushAll(ctx, a.ID, p, "end:"+id)
		if err != nil {
			return outcome{err: err}
		}
		done = append(done, fmt.Sprintf("pushed to %d", sent))
	}
	if set.End.Email == EmailEach && a.Email != "" && n.c.Mailer != nil {
		lines := []string{body, "", t.mailEnd, n.link("/play/" + id)}
		if err := n.mail(ctx, a, t.endTitle(game), lines, j.Key); err != nil {
			return outcome{err: err}
		}
		done = append(done, "mailed")
	}
	return outcome{result: strings.Join(done, ", ")}
}

// endBody says how a match ended, to acct's player: who won (the outcome
// is everyone's to know once the match is over).
func (n *Notifier) endBody(t *texts, sum match.Summary, acct string) string {
	if sum.Status != store.Finished || sum.Outcome == nil {
		if sum.Status == store.Abandoned {
			return t.endAbandoned
		}
		return t.endStopped
	}
	var won bool
	var others []string
	for _, w := range sum.Outcome.Winners {
		if int(w) >= len(sum.Seats) {
			continue
		}
		if sum.Seats[w].Account == acct {
			won = true
			continue
		}
		others = append(others, sum.Seats[w].Name)
	}
	others = named(t, others)
	switch {
	case won && len(others) == 0:
		return t.endYouWon
	case won:
		return t.endYouWonWith(t.list(others))
	case len(others) == 0:
		return t.endNobody
	}
	return t.endWon(others, t.list(others))
}

// digest sends the daily digest: the matches by correspondence waiting
// for the player and the seats kept for them, as they stand now.
func (n *Notifier) digest(ctx context.Context, a *store.Account, set Settings) outcome {
	if a.Email == "" || n.c.Mailer == nil {
		return outcome{result: "no address"}
	}
	t := textsOf(a.Lang)
	var turns []waitingMatch
	if set.Turn.Email == EmailDigest {
		ws, err := n.waiting(ctx, a.ID)
		if err != nil {
			return outcome{err: err}
		}
		for _, w := range ws {
			if correspondence(w.sum) {
				turns = append(turns, w)
			}
		}
	}
	var invites []string
	if set.Invite.Email == EmailDigest {
		invs, err := n.st.Invitations(ctx, a.ID)
		if err != nil {
			return outcome{err: err}
		}
		for _, inv := range invs {
			sum, err := n.c.Matches.Summary(ctx, inv.Match)
			if err != nil || sum.Status.Over() {
				continue
			}
			invites = append(invites, "- "+t.with(n.gameName(sum.Game, a.Lang), n.nameOf(ctx, inv.From))+"\u00a0: "+n.link("/play/"+inv.Match))
		}
	}
	if len(turns) == 0 && len(invites) == 0 {
		return outcome{result: "nothing to tell"}
	}
	var lines []string
	if len(turns) > 0 {
		lines = append(lines, n.turnLines(t, a.Lang, turns)...)
	}
	if len(invites) > 0 {
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(append(lines, t.mailInvites), invites...)
	}
	key := a.ID + ":digest:" + time.Now().UTC().Format("2006-01-02T15")
	if err := n.mail(ctx, a, t.digestTitle(len(turns), len(invites)), lines, key); err != nil {
		return outcome{err: err}
	}
	return outcome{result: "mailed"}
}

// queueDigest makes sure the player's next daily digest is queued.
func (n *Notifier) queueDigest(ctx context.Context, a *store.Account, set Settings) error {
	at := set.nextDigest(time.Now())
	_, err := n.st.EnqueueJob(ctx, JobKind, a.ID+":digest:"+at.Format("2006-01-02"), "", at)
	return err
}

// pushAll posts payload to every device of acct under the topic of key,
// and returns to how many; a device whose push service says it is gone is
// forgotten. It fails only if no device could be reached and one may be
// later.
func (n *Notifier) pushAll(ctx context.Context, acct string, p Payload, key string) (int, error) {
	subs, err := n.st.PushSubscriptions(ctx, acct)
	if err != nil {
		return 0, err
	}
	body, _ := json.Marshal(p)
	topic := topicOf(acct + ":" + key)
	sent, failed := 0, 0
	var last error
	for _, s := range subs {
		res, err := n.push.send(ctx, s, body, topic)
		switch res {
		case pushSent:
			sent++
		case pushGone:
			if err := n.st.DropPushEndpoint(ctx, s.Endpoint); err != nil {
				n.log.Warn("cannot forget a push subscription", "err", err)
			}
		case pushRefused:
			n.log.Warn("a push subscription's endpoint is no longer allowed", "account", acct, "err", err)
		case pushFailed:
			failed++
			last = err
		}
	}
	if sent == 0 && failed > 0 {
		return 0, last
	}
	return sent, nil
}

// link is the public address of path.
func (n *Notifier) link(path string) string { return n.c.PublicURL.JoinPath(path).String() }

// mail sends a mail to a's player: the greeting, lines, then the links to
// the settings and to unsubscribe.
func (n *Notifier) mail(ctx context.Context, a *store.Account, subject string, lines []string, key string) error {
	t := textsOf(a.Lang)
	unsub := n.UnsubscribeURL(a.ID)
	var b strings.Builder
	b.WriteString(t.hello(a.Name) + "\n\n")
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n" + t.settingsLine + "\n" + n.link("/account/notifications") + "\n\n")
	b.WriteString(t.unsubLine + "\n" + unsub + "\n\n" + t.signature + "\n")
	if a.Lang != "fr" {
		// (English has no space before a colon.)
		s := strings.ReplaceAll(b.String(), "\u00a0:", ":")
		b.Reset()
		b.WriteString(s)
	}
	h := sha256.Sum256([]byte(key))
	id := hex.EncodeToString(h[:16]) + "@" + n.c.PublicURL.Hostname()
	return n.c.Mailer.SendWith(ctx, a.Email, subject, b.String(), account.Extra{MessageID: id, Unsubscribe: unsub})
}

// UnsubscribeURL is the one-click address that stops every e-mail to an
// account: signed, so that nobody else can make one.
func (n *Notifier) UnsubscribeURL(acct string) string {
	u := n.c.PublicURL.JoinPath("/unsubscribe")
	u.RawQuery = url.Values{"a": {acct}, "t": {n.unsubToken(acct)}}.Encode()
	return u.String()
}

func (n *Notifier) unsubToken(acct string) string {
	m := hmac.New(sha256.New, n.unsubKey)
	m.Write([]byte("unsubscribe:" + acct))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))[:32]
}

// Unsubscribe turns every e-mail of an account off, if token is its
// unsubscribe link's; it reports whether it was.
func (n *Notifier) Unsubscribe(ctx context.Context, acct, token string) (bool, error) {
	if !hmac.Equal([]byte(token), []byte(n.unsubToken(acct))) {
		return false, nil
	}
	set, err := n.Settings(ctx, acct)
	if err != nil {
		return false, err
	}
	set.Turn.Email, set.Invite.Email, set.End.Email = EmailOff, EmailOff, EmailOff
	_, err = n.SaveSettings(ctx, acct, set)
	return err == nil, err
}

// Settings returns an account's settings, or the defaults.
func (n *Notifier) Settings(ctx context.Context, acct string) (Settings, error) {
	raw, err := n.st.NotifySettings(ctx, acct)
	if err != nil {
		return Settings{}, err
	}
	return readSettings(raw), nil
}

// SaveSettings checks and keeps an account's settings.
func (n *Notifier) SaveSettings(ctx context.Context, acct string, s Settings) (Settings, error) {
	s, err := s.Check()
	if err != nil {
		return s, &BadSettings{err.Error()}
	}
	b, _ := json.Marshal(s)
	return s, n.st.PutNotifySettings(ctx, acct, b)
}

// BadSettings are settings refused, with why.
type BadSettings struct{ Why string }

func (e *BadSettings) Error() string { return e.Why }

// AllowSubscribe counts a subscription made by acct: 5 at once, then one
// every 6 minutes; it reports whether it is allowed, and if not when one
// is.
func (n *Notifier) AllowSubscribe(acct string, now time.Time) (bool, time.Duration) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.subs) > 10000 {
		for k, l := range n.subs {
			if l.TokensAt(now) >= 5 {
				delete(n.subs, k)
			}
		}
	}
	l := n.subs[acct]
	if l == nil {
		l = rate.NewLimiter(rate.Every(6*time.Minute), 5)
		n.subs[acct] = l
	}
	r := l.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}
