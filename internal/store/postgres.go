package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"sortie/engine"
)

// PostgresOptions tune a PostgreSQL store. The zero value is the default.
// The pool is set up from the URL's own parameters (pool_max_conns,
// pool_health_check_period, connect_timeout: see pgxpool.ParseConfig).
type PostgresOptions struct {
	// MaxBatch bounds how many writes share one transaction: 512 if zero.
	MaxBatch int
	// Linger: while writes keep coming from several matches (the previous
	// transaction held more than one and ended less than Linger ago), a
	// transaction waits until Linger after it to gather more, since a commit
	// costs far more than a write. One client alone never waits. 0 means DefaultLinger; negative, never wait.
	Linger time.Duration
	// Timeout bounds each transaction and each read: 10 s if zero. A store
	// that does not answer within it is [ErrUnavailable].
	Timeout time.Duration
	// OnCommit, if set, is called after every transaction of the writer with
	// the number of writes it held and how long it took.
	OnCommit func(writes int, d time.Duration)
}

// Postgres is a [Store] in a PostgreSQL database, shared by every node of a
// cluster. Like [SQLite], one goroutine of each node commits every write
// queued meanwhile in one transaction, and sends the batch's statements in one
// round trip; a write is acknowledged after the commit. Leases are told by
// the database's clock, and kept as a history: the leases table holds every
// lease taken (match, epoch, node, when), and each record the epoch it was
// appended under, so that an operator (or the cluster tests) can tell which
// node wrote what. While the database is down, every call returns
// [ErrUnavailable] within the timeout; the pool connects again by itself when
// it is back.
type Postgres struct {
	pool    *pgxpool.Pool
	q       *queue[*pgOp]
	timeout time.Duration
	where   string // host and database, for messages
}

// pgOp is one write: a statement sent with the others of its batch. A
// statement that changed nothing (or returned no row, if scan is set) is
// judged by refusal, run in the same transaction after the batch: a refusal,
// or nil for a write that needed no change.
type pgOp struct {
	sql     string
	args    []any
	scan    func(pgx.Row) error
	refusal func(ctx context.Context, tx pgx.Tx) error
}

// fence is the condition a write to match row m under epoch $2 needs.
const fence = `epoch = $2 AND (owner <> '' OR epoch = 0)`

// postgresMigrations are the schema versions, in order.
var postgresMigrations = []string{
	`CREATE TABLE matches (
		id        text PRIMARY KEY,
		game      text NOT NULL,
		setup     text NOT NULL,
		seats     jsonb NOT NULL,
		host_hash bytea,
		settings  bytea,
		status    text NOT NULL,
		clock     bigint NOT NULL DEFAULT 0,
		outcome   text,
		created   timestamptz NOT NULL,
		started   timestamptz,
		finished  timestamptz,
		records   integer NOT NULL DEFAULT 0,
		epoch     bigint NOT NULL DEFAULT 0,
		owner     text NOT NULL DEFAULT ''
	) WITH (fillfactor = 80);
	CREATE INDEX matches_status ON matches (status, created);
	CREATE INDEX matches_owner ON matches (owner) WHERE owner <> '';
	CREATE TABLE records (
		match_id text NOT NULL,
		n        integer NOT NULL,
		rec      bytea NOT NULL,
		PRIMARY KEY (match_id, n)
	);
	CREATE TABLE nodes (
		name    text PRIMARY KEY,
		expires timestamptz NOT NULL
	);
	CREATE TABLE sortie_health (
		id      integer PRIMARY KEY,
		checked timestamptz NOT NULL
	);
	INSERT INTO sortie_health VALUES (1, now());`,

	`CREATE TABLE chat (
		match_id text NOT NULL,
		n        integer NOT NULL,
		line     bytea NOT NULL,
		PRIMARY KEY (match_id, n)
	);`,

	// Matches that end without an outcome keep why; matches over are
	// pruned by when they ended.
	`ALTER TABLE matches ADD COLUMN reason text NOT NULL DEFAULT '';
	CREATE INDEX matches_over ON matches (finished) WHERE status NOT IN ('open', 'running');`,

	// Who ran a match when: every lease taken, and the lease each record
	// was written under (0 before leases, or on a single node).
	`CREATE TABLE leases (
		match_id text NOT NULL,
		epoch    bigint NOT NULL,
		node     text NOT NULL,
		acquired timestamptz NOT NULL,
		PRIMARY KEY (match_id, epoch)
	);
	ALTER TABLE records ADD COLUMN epoch bigint NOT NULL DEFAULT 0;`,

	// Since when a running match has had no player connected (null: one
	// is, or unknown).
	`ALTER TABLE matches ADD COLUMN absent_since timestamptz;`,

	// Who created a match, for the limits a node rebuilds when it starts.
	`ALTER TABLE matches ADD COLUMN creator text NOT NULL DEFAULT '';
	CREATE INDEX matches_created ON matches (created) WHERE creator <> '';`,

	// Accounts, how they sign in, the seats they hold (seat_accounts
	// indexes the seats' own account field), the seats kept for them, and
	// whom they follow or block. An account's e-mail address is kept in
	// lower case, unique unless empty. The constraints' names say, in a
	// unique violation, what was taken (see fault).
	`ALTER TABLE matches ADD COLUMN account text NOT NULL DEFAULT '';
	CREATE INDEX matches_account ON matches (account) WHERE account <> '';
	CREATE TABLE accounts (
		id      text PRIMARY KEY,
		name    text NOT NULL,
		email   text NOT NULL DEFAULT '',
		lang    text NOT NULL DEFAULT '',
		handle  bytea NOT NULL CONSTRAINT accounts_handle UNIQUE,
		created timestamptz NOT NULL
	);
	CREATE UNIQUE INDEX accounts_email ON accounts (email) WHERE email <> '';
	CREATE TABLE passkeys (
		id         bytea PRIMARY KEY,
		account    text NOT NULL,
		name       text NOT NULL,
		credential bytea NOT NULL,
		created    timestamptz NOT NULL,
		used       timestamptz
	);
	CREATE INDEX passkeys_account ON passkeys (account, created);
	CREATE TABLE sessions (
		hash    bytea PRIMARY KEY,
		data    bytea NOT NULL,
		account text NOT NULL DEFAULT '',
		expiry  timestamptz NOT NULL
	);
	CREATE INDEX sessions_account ON sessions (account) WHERE account <> '';
	CREATE INDEX sessions_expiry ON sessions (expiry);
	CREATE TABLE sign_in_tokens (
		hash    bytea PRIMARY KEY,
		email   text NOT NULL,
		expires timestamptz NOT NULL
	);
	CREATE INDEX sign_in_tokens_expires ON sign_in_tokens (expires);
	CREATE TABLE seat_accounts (
		match_id text NOT NULL,
		seat     integer NOT NULL,
		account  text NOT NULL,
		PRIMARY KEY (match_id, seat)
	);
	CREATE INDEX seat_accounts_account ON seat_accounts (account);
	CREATE TABLE invitations (
		match_id     text NOT NULL,
		seat         integer NOT NULL,
		account      text NOT NULL,
		from_account text NOT NULL,
		created      timestamptz NOT NULL,
		PRIMARY KEY (match_id, seat)
	);
	CREATE INDEX invitations_account ON invitations (account, created);
	CREATE INDEX invitations_from ON invitations (from_account);
	CREATE TABLE follows (
		from_account text NOT NULL,
		to_account   text NOT NULL,
		created      timestamptz NOT NULL,
		PRIMARY KEY (from_account, to_account)
	);
	CREATE INDEX follows_to ON follows (to_account);
	CREATE TABLE blocks (
		from_account text NOT NULL,
		to_account   text NOT NULL,
		created      timestamptz NOT NULL,
		PRIMARY KEY (from_account, to_account)
	);
	CREATE INDEX blocks_to ON blocks (to_account);`,

	// Ratings per player (an account, or a bot level) x game x family,
	// their history, and each finished match's decision (rated or why
	// not), written once; matches finished before ratings existed are
	// decided as such. Play now's tickets, and the locks that let one
	// node at a time do a job (seating the players who wait).
	`CREATE TABLE rated_matches (
		match_id text PRIMARY KEY,
		rated    boolean NOT NULL,
		reason   text NOT NULL DEFAULT '',
		game     text NOT NULL DEFAULT '',
		family   text NOT NULL DEFAULT '',
		at       timestamptz NOT NULL
	);
	INSERT INTO rated_matches (match_id, rated, reason, game, at)
		SELECT id, false, 'before_ratings', game, coalesce(finished, created) FROM matches WHERE status = 'finished';
	CREATE TABLE ratings (
		player  text NOT NULL,
		game    text NOT NULL,
		family  text NOT NULL,
		mu      double precision NOT NULL,
		sigma   double precision NOT NULL,
		games   integer NOT NULL,
		updated timestamptz NOT NULL,
		PRIMARY KEY (player, game, family)
	);
	CREATE INDEX ratings_board ON ratings (game, family, (mu - 3 * sigma));
	CREATE TABLE rating_history (
		player       text NOT NULL,
		match_id     text NOT NULL,
		game         text NOT NULL,
		family       text NOT NULL,
		before_mu    double precision NOT NULL,
		before_sigma double precision NOT NULL,
		mu           double precision NOT NULL,
		sigma        double precision NOT NULL,
		rank         integer NOT NULL,
		games        integer NOT NULL,
		at           timestamptz NOT NULL,
		PRIMARY KEY (player, match_id)
	);
	CREATE INDEX rating_history_player ON rating_history (player, at);
	CREATE INDEX rating_history_match ON rating_history (match_id);
	CREATE TABLE tickets (
		hash        bytea PRIMARY KEY,
		account     text NOT NULL,
		name        text NOT NULL,
		game        text NOT NULL,
		players     integer NOT NULL,
		mode        text NOT NULL,
		rated       boolean NOT NULL,
		humans_only boolean NOT NULL,
		bot_fill_ms bigint NOT NULL,
		mu          double precision NOT NULL,
		sigma       double precision NOT NULL,
		leaver      boolean NOT NULL,
		token_hash  bytea NOT NULL,
		created     timestamptz NOT NULL,
		status      text NOT NULL,
		match_id    text NOT NULL DEFAULT '',
		seat        integer NOT NULL DEFAULT 0,
		done        timestamptz
	);
	CREATE INDEX tickets_waiting ON tickets (created) WHERE status = 'waiting';
	CREATE INDEX tickets_account ON tickets (account) WHERE status = 'waiting';
	CREATE INDEX tickets_done ON tickets (done) WHERE status <> 'waiting';
	CREATE TABLE locks (
		name    text PRIMARY KEY,
		node    text NOT NULL,
		expires timestamptz NOT NULL
	);`,

	// Background jobs (a match's review), the hints used, the daily
	// challenges (postgres_teach.go).
	postgresTeachSchema,

	// Web Push subscriptions, notification settings, the server's secrets;
	// the jobs over, by kind, for their pruning (postgres_notify.go).
	postgresNotifySchema,

	// Play now at correspondence tables, and for a range of players: the
	// move limit and the largest number a ticket asks for; each match's
	// rematch.
	`ALTER TABLE tickets ADD COLUMN move_limit_ms bigint NOT NULL DEFAULT 0;
	ALTER TABLE tickets ADD COLUMN players_max integer NOT NULL DEFAULT 0;
	CREATE TABLE rematches (
		match_id   text PRIMARY KEY,
		rematch_id text NOT NULL
	);`,
}

// idleInTransaction is how long PostgreSQL lets a connection of the store
// sit idle inside a transaction before it ends the transaction.
const idleInTransaction = time.Second

// OpenPostgres connects to the database at url (postgres://...), creates or
// migrates its schema, and starts the writer.
func OpenPostgres(ctx context.Context, url string, o PostgresOptions) (*Postgres, error) {
	if o.MaxBatch <= 0 {
		o.MaxBatch = 512
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("store: the PostgreSQL URL: %v", err)
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = 5 * time.Second
	}
	if !strings.Contains(url, "pool_health_check_period") {
		cfg.HealthCheckPeriod = 5 * time.Second
	}
	if _, set := cfg.ConnConfig.RuntimeParams["idle_in_transaction_session_timeout"]; !set {
		// A node paused or cut off in the middle of a commit would hold
		// the rows it wrote (and every node that touches them: taking its
		// matches over, say) until it came back: PostgreSQL ends such a
		// transaction after this long, which a commit never takes between
		// two of its statements.
		cfg.ConnConfig.RuntimeParams["idle_in_transaction_session_timeout"] = strconv.Itoa(int(idleInTransaction / time.Millisecond))
	}
	where := fmt.Sprintf("database %q on %s", cfg.ConnConfig.Database, cfg.ConnConfig.Host)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store: PostgreSQL %s: %v", where, err)
	}
	s := &Postgres{pool: pool, timeout: o.Timeout, where: where}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	s.q = newQueue(o.MaxBatch, o.Linger, s.commit, o.OnCommit)
	return s, nil
}

// migrate applies the migrations the database lacks, one node at a time.
func (s *Postgres) migrate(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*s.timeout)
	defer cancel()
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("store: PostgreSQL %s does not answer: %v", s.where, err)
	}
	defer tx.Rollback(ctx)
	// Nodes starting together wait for the first one's migration.
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(7405612345)`); err != nil {
		return fmt.Errorf("store: PostgreSQL %s: %v", s.where, err)
	}
	var ours, theirs bool
	if err := tx.QueryRow(ctx, `SELECT to_regclass('sortie_schema') IS NOT NULL, to_regclass('matches') IS NOT NULL`).Scan(&ours, &theirs); err != nil {
		return fmt.Errorf("store: PostgreSQL %s: %v", s.where, err)
	}
	if theirs && !ours {
		return fmt.Errorf("store: PostgreSQL %s holds a matches table that Sortie did not make; give Sortie a database of its own", s.where)
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS sortie_schema (version integer PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())`); err != nil {
		return fmt.Errorf("store: PostgreSQL %s: %v", s.where, err)
	}
	var version int
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM sortie_schema`).Scan(&version); err != nil {
		return fmt.Errorf("store: PostgreSQL %s: %v", s.where, err)
	}
	if version > len(postgresMigrations) {
		return fmt.Errorf("store: PostgreSQL %s was written by a newer Sortie (schema version %d; this one knows up to %d)",
			s.where, version, len(postgresMigrations))
	}
	for v := version + 1; v <= len(postgresMigrations); v++ {
		if _, err := tx.Exec(ctx, postgresMigrations[v-1]); err != nil {
			return fmt.Errorf("store: PostgreSQL %s: schema version %d: %v", s.where, v, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO sortie_schema (version) VALUES ($1)`, v); err != nil {
			return fmt.Errorf("store: PostgreSQL %s: %v", s.where, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("store: PostgreSQL %s: %v", s.where, err)
	}
	return nil
}

// commit runs a batch of writes in one transaction and one round trip.
func (s *Postgres) commit(batch []*pgOp) ([]error, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, s.fault(err)
	}
	defer tx.Rollback(ctx)
	b := &pgx.Batch{}
	for _, o := range batch {
		b.Queue(o.sql, o.args...)
	}
	br := tx.SendBatch(ctx, b)
	changed := make([]bool, len(batch))
	for i, o := range batch {
		if o.scan != nil {
			err := o.scan(br.QueryRow())
			if err != nil && !errors.Is(err, pgx.ErrNoRows) {
				br.Close()
				return nil, s.fault(err)
			}
			changed[i] = err == nil
			continue
		}
		ct, err := br.Exec()
		if err != nil {
			br.Close()
			return nil, s.fault(err)
		}
		changed[i] = ct.RowsAffected() > 0
	}
	if err := br.Close(); err != nil {
		return nil, s.fault(err)
	}
	errs := make([]error, len(batch))
	for i, o := range batch {
		if changed[i] || o.refusal == nil {
			continue
		}
		if err := o.refusal(ctx, tx); err != nil {
			if !refused(err) {
				return nil, s.fault(err)
			}
			errs[i] = err
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, s.fault(err)
	}
	return errs, nil
}

// fault turns an error of the connection or of the server's state into
// [ErrUnavailable]; other errors (a statement the server refused) stay as
// they are.
func (s *Postgres) fault(err error) error {
	if err == nil || refused(err) || errors.Is(err, errBadData) {
		return err
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		if pe.Code == "23505" { // unique_violation
			// Two nodes gave one address (or id, handle, passkey) at
			// once: the second's statement met the first's row.
			switch pe.ConstraintName {
			case "accounts_pkey", "accounts_handle", "accounts_email":
				return fmt.Errorf("%w: the id, e-mail address or handle of an account: %v", ErrTaken, err)
			case "passkeys_pkey":
				return fmt.Errorf("%w: a passkey's id: %v", ErrTaken, err)
			}
		}
		switch pe.Code[:2] {
		case "08", "53", "57", "58", "40", "25", "55":
			// connection, resources (disk full), shutdown, system error,
			// serialization, read-only transaction, lock not available
			return unavailable("PostgreSQL "+s.where+" cannot write now", err)
		}
		return fmt.Errorf("store: PostgreSQL: %w", err)
	}
	return unavailable("PostgreSQL "+s.where+" does not answer", err)
}

// write queues one statement on the writer.
func (s *Postgres) write(ctx context.Context, match string, o *pgOp) error {
	return s.q.write(ctx, match, o)
}

// holdFor reads, locking the row against a change of lease, what a write to
// match id is judged on.
func holdFor(ctx context.Context, tx pgx.Tx, id string) (holding, error) {
	h := holding{found: true}
	var status string
	err := tx.QueryRow(ctx, `SELECT epoch, owner, status FROM matches WHERE id = $1 FOR SHARE`, id).Scan(&h.epoch, &h.owner, &status)
	if errors.Is(err, pgx.ErrNoRows) {
		return holding{}, nil
	}
	h.status = Status(status)
	return h, err
}

// refuse judges a fenced write that changed nothing: need is the status it
// needs, then more says what else was wrong (nil: nothing needed changing).
func refuse(id string, e Epoch, need Status, more func(ctx context.Context, tx pgx.Tx) error) func(context.Context, pgx.Tx) error {
	return func(ctx context.Context, tx pgx.Tx) error {
		h, err := holdFor(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := h.refusal(id, e, need); err != nil {
			return err
		}
		if more == nil {
			return nil
		}
		return more(ctx, tx)
	}
}

// Close waits for the queued writes and closes the pool.
func (s *Postgres) Close() error {
	if s.q.close() {
		s.pool.Close()
	}
	return nil
}

// Create stores a new match.
func (s *Postgres) Create(ctx context.Context, m *Match) error {
	setup, err := json.Marshal(m.Setup)
	if err != nil {
		return err
	}
	seats, err := encodeSeats(m.Seats)
	if err != nil {
		return err
	}
	status := m.Status
	if status == "" {
		status = Open
	}
	index, accounts := heldSeats(m.Seats)
	return s.write(ctx, m.ID, &pgOp{
		sql: `WITH m AS (INSERT INTO matches (id, game, setup, seats, host_hash, settings, status, clock, created, creator, account)
				VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING RETURNING id),
			held AS (INSERT INTO seat_accounts (match_id, seat, account)
				SELECT m.id, h.seat, h.account FROM m, unnest($12::int[], $13::text[]) AS h (seat, account)
				ON CONFLICT (match_id, seat) DO UPDATE SET account = excluded.account)
			SELECT 1 FROM m`,
		args:    []any{m.ID, m.Game, string(setup), seats, m.HostHash, m.Settings, string(status), int64(m.Clock), m.Created, m.Creator, m.Account, index, accounts},
		scan:    scanOne,
		refusal: func(context.Context, pgx.Tx) error { return taken(m.ID) },
	})
}

// Append writes the next record of a match's log.
func (s *Postgres) Append(ctx context.Context, id string, e Epoch, n int, rec []byte, at engine.Millis) error {
	// Updating the match's row first takes its lock: a lease taken
	// meanwhile waits for this commit, or this append sees the new epoch.
	return s.write(ctx, id, &pgOp{
		sql: `WITH m AS (UPDATE matches SET records = $3 WHERE id = $1 AND ` + fence + ` AND status = 'running' AND records = $3 - 1 RETURNING id)
			INSERT INTO records (match_id, n, rec, epoch) SELECT id, $3, $4, $2 FROM m`,
		args: []any{id, int64(e), n, rec},
		refusal: refuse(id, e, Running, func(ctx context.Context, tx pgx.Tx) error {
			var last []byte
			err := tx.QueryRow(ctx, `SELECT r.rec FROM records r JOIN matches m ON m.id = r.match_id AND m.records = r.n
				WHERE r.match_id = $1 AND r.n = $2`, id, n).Scan(&last)
			return repeated(id, n, rec, last, err, pgx.ErrNoRows)
		}),
	})
}

// AppendChat writes the next line of a match's table talk. Reading the
// match's row FOR SHARE holds off a change of lease until this commit.
func (s *Postgres) AppendChat(ctx context.Context, id string, e Epoch, n int, line []byte) error {
	return s.write(ctx, id, &pgOp{
		sql: `INSERT INTO chat (match_id, n, line)
			SELECT id, $3, $4 FROM matches WHERE id = $1 AND ` + fence + `
			AND (SELECT coalesce(max(n), 0) FROM chat WHERE match_id = $1) = $3 - 1 FOR SHARE`,
		args: []any{id, int64(e), n, line},
		refusal: refuse(id, e, "", func(ctx context.Context, tx pgx.Tx) error {
			var last []byte
			err := tx.QueryRow(ctx, `SELECT line FROM chat WHERE match_id = $1 AND n = $2
				AND n = (SELECT max(n) FROM chat WHERE match_id = $1)`, id, n).Scan(&last)
			return repeated(id, n, line, last, err, pgx.ErrNoRows)
		}),
	})
}

// Chat returns a match's table talk.
func (s *Postgres) Chat(ctx context.Context, id string) ([][]byte, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT n, line FROM chat WHERE match_id = $1 ORDER BY n`, id)
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	return readLog(id, rows, s.fault)
}

// SetSeat replaces one seat of a match.
func (s *Postgres) SetSeat(ctx context.Context, id string, e Epoch, i int, st Seat) error {
	seat, err := json.Marshal(encodeSeat(st))
	if err != nil {
		return err
	}
	// seat_accounts follows the seat: its row is made, given to another
	// account, or deleted when nobody's account holds the seat.
	return s.write(ctx, id, &pgOp{
		sql: `WITH m AS (UPDATE matches SET seats = jsonb_set(seats, ARRAY[$3::int::text], $4::jsonb)
				WHERE id = $1 AND ` + fence + ` AND $3::int >= 0 AND $3::int < jsonb_array_length(seats) RETURNING id),
			held AS (INSERT INTO seat_accounts (match_id, seat, account) SELECT id, $3, $5 FROM m WHERE $5 <> ''
				ON CONFLICT (match_id, seat) DO UPDATE SET account = excluded.account),
			freed AS (DELETE FROM seat_accounts WHERE $5 = '' AND match_id IN (SELECT id FROM m) AND seat = $3)
			SELECT 1 FROM m`,
		args:    []any{id, int64(e), i, string(seat), st.Account},
		scan:    scanOne,
		refusal: refuse(id, e, "", func(context.Context, pgx.Tx) error { return badSeat(id, i) }),
	})
}

// Start marks a match running.
func (s *Postgres) Start(ctx context.Context, id string, e Epoch, at time.Time) error {
	return s.write(ctx, id, &pgOp{
		sql:     `UPDATE matches SET status = 'running', started = $3 WHERE id = $1 AND ` + fence + ` AND status = 'open'`,
		args:    []any{id, int64(e), at},
		refusal: refuse(id, e, Open, nil),
	})
}

// Finish marks a match finished.
func (s *Postgres) Finish(ctx context.Context, id string, e Epoch, o engine.Outcome, clock engine.Millis, at time.Time) error {
	out, err := json.Marshal(o)
	if err != nil {
		return err
	}
	return s.write(ctx, id, &pgOp{
		sql: `UPDATE matches SET status = 'finished', outcome = $3, clock = $4, finished = $5
			WHERE id = $1 AND ` + fence,
		args:    []any{id, int64(e), string(out), int64(clock), at},
		refusal: refuse(id, e, "", nil),
	})
}

// End marks a match over without an outcome.
func (s *Postgres) End(ctx context.Context, id string, e Epoch, status Status, reason string, clock engine.Millis, at time.Time) error {
	return s.write(ctx, id, &pgOp{
		sql: `UPDATE matches SET status = $3, reason = $4, clock = $5, finished = $6
			WHERE id = $1 AND ` + fence + ` AND status = ANY($7)`,
		args: []any{id, int64(e), string(status), reason, int64(clock), at, endable(status)},
		refusal: func(ctx context.Context, tx pgx.Tx) error {
			h, err := holdFor(ctx, tx, id)
			if err != nil {
				return err
			}
			if err := h.refusal(id, e, ""); err != nil {
				return err
			}
			return canEnd(id, h.status, status)
		},
	})
}

// Prune deletes matches over since before the given time.
func (s *Postgres) Prune(ctx context.Context, before time.Time, limit int) (int, error) {
	var n int
	err := s.write(ctx, "", &pgOp{
		sql: `WITH gone AS (SELECT id FROM matches WHERE ` + over + ` AND finished < $1
				ORDER BY finished, id LIMIT $2 FOR UPDATE SKIP LOCKED),
			r AS (DELETE FROM records WHERE match_id IN (SELECT id FROM gone)),
			c AS (DELETE FROM chat WHERE match_id IN (SELECT id FROM gone)),
			sa AS (DELETE FROM seat_accounts WHERE match_id IN (SELECT id FROM gone)),
			i AS (DELETE FROM invitations WHERE match_id IN (SELECT id FROM gone)),` + postgresTeachPrune + `
			m AS (DELETE FROM matches WHERE id IN (SELECT id FROM gone) RETURNING 1)
			SELECT count(*) FROM m`,
		args: []any{before, limitOr100(limit)},
		scan: func(r pgx.Row) error { return r.Scan(&n) },
	})
	return n, err
}

// SaveClock saves the clock of a running match.
func (s *Postgres) SaveClock(ctx context.Context, id string, e Epoch, clock engine.Millis) error {
	return s.write(ctx, id, &pgOp{
		sql:     `UPDATE matches SET clock = $3 WHERE id = $1 AND ` + fence + ` AND status = 'running'`,
		args:    []any{id, int64(e), int64(clock)},
		refusal: refuse(id, e, "", nil),
	})
}

// SaveAbsence saves since when a running match has had no player.
func (s *Postgres) SaveAbsence(ctx context.Context, id string, e Epoch, since time.Time) error {
	var at *time.Time
	if !since.IsZero() {
		at = &since
	}
	return s.write(ctx, id, &pgOp{
		sql:     `UPDATE matches SET absent_since = $3 WHERE id = $1 AND ` + fence + ` AND status = 'running'`,
		args:    []any{id, int64(e), at},
		refusal: refuse(id, e, "", nil),
	})
}

// heartbeatSQL extends node $1's leases to $2 milliseconds from now, never
// shortening them.
const heartbeatSQL = `INSERT INTO nodes (name, expires) VALUES ($1, clock_timestamp() + $2 * interval '1 millisecond')
	ON CONFLICT (name) DO UPDATE SET expires = greatest(nodes.expires, excluded.expires) RETURNING expires`

// Acquire takes the lease on a match.
func (s *Postgres) Acquire(ctx context.Context, id, node string, ttl time.Duration) (Lease, error) {
	l := Lease{Match: id, Node: node}
	err := s.write(ctx, id, &pgOp{
		sql: `WITH hb AS (` + heartbeatSQL + `),
			taken AS (UPDATE matches m SET epoch = m.epoch + 1, owner = $1 FROM hb
				WHERE m.id = $3 AND (m.owner = '' OR m.owner = $1
					OR NOT EXISTS (SELECT 1 FROM nodes o WHERE o.name = m.owner AND o.expires > clock_timestamp()))
				RETURNING m.id, m.epoch, hb.expires),
			kept AS (INSERT INTO leases (match_id, epoch, node, acquired) SELECT id, epoch, $1, clock_timestamp() FROM taken)
			SELECT epoch, expires FROM taken`,
		args: []any{node, ttl.Milliseconds(), id},
		scan: func(r pgx.Row) error { return r.Scan(&l.Epoch, &l.Expires) },
		refusal: func(ctx context.Context, tx pgx.Tx) error {
			var owner string
			var until *time.Time
			err := tx.QueryRow(ctx, `SELECT m.owner, n.expires FROM matches m LEFT JOIN nodes n ON n.name = m.owner WHERE m.id = $1`, id).Scan(&owner, &until)
			if errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("%w: %s", ErrNotFound, id)
			}
			if err != nil {
				return err
			}
			if until == nil {
				until = new(time.Time)
			}
			return leased(id, owner, *until)
		},
	})
	if err != nil {
		return Lease{}, err
	}
	return l, nil
}

// Renew extends a node's leases and lists them.
func (s *Postgres) Renew(ctx context.Context, node string, ttl time.Duration) ([]Lease, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	var expires time.Time
	if err := s.pool.QueryRow(ctx, heartbeatSQL, node, ttl.Milliseconds()).Scan(&expires); err != nil {
		return nil, s.fault(err)
	}
	rows, err := s.pool.Query(ctx, `SELECT id, epoch FROM matches WHERE owner = $1 AND status IN ('open', 'running') ORDER BY id`, node)
	if err != nil {
		return nil, s.fault(err)
	}
	ls, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Lease, error) {
		l := Lease{Node: node, Expires: expires}
		return l, r.Scan(&l.Match, &l.Epoch)
	})
	return ls, s.fault(err)
}

// Release gives a lease up.
func (s *Postgres) Release(ctx context.Context, l Lease) error {
	return s.write(ctx, l.Match, &pgOp{
		sql:  `UPDATE matches SET owner = '' WHERE id = $1 AND epoch = $2 AND owner = $3 AND owner <> ''`,
		args: []any{l.Match, int64(l.Epoch), l.Node},
		refusal: refuse(l.Match, l.Epoch, "", func(context.Context, pgx.Tx) error {
			return fmt.Errorf("%w: match %s is not held by node %q", ErrFenced, l.Match, l.Node)
		}),
	})
}

// Orphans lists unfinished matches that nobody holds.
func (s *Postgres) Orphans(ctx context.Context, limit int) ([]string, error) {
	return s.ids(ctx, `SELECT m.id FROM matches m LEFT JOIN nodes n ON n.name = m.owner
		WHERE m.status IN ('open', 'running') AND (m.owner = '' OR n.expires IS NULL OR n.expires <= clock_timestamp())
		ORDER BY m.created, m.id LIMIT $1`, limitOr100(limit))
}

// Check commits a small write unless one committed lately.
func (s *Postgres) Check(ctx context.Context) error {
	return s.q.check(ctx, &pgOp{sql: `UPDATE sortie_health SET checked = clock_timestamp() WHERE id = 1`})
}

// pgMatchColumns are read from matches m.
const pgMatchColumns = `m.id, m.game, m.setup, m.seats::text, m.host_hash, m.settings, m.status, m.records, m.clock, m.outcome,
	m.created, m.started, m.finished, m.epoch, m.owner, (SELECT expires FROM nodes WHERE name = m.owner), m.reason, m.absent_since,
	m.creator, m.account`

// scanPgMatch reads a match from pgMatchColumns, and the columns after them
// into more.
func scanPgMatch(row pgx.Row, more ...any) (*Match, error) {
	var (
		m                                  Match
		setup, seats, status               string
		outcome                            *string
		clock                              int64
		started, finished, expires, absent *time.Time
	)
	dest := []any{&m.ID, &m.Game, &setup, &seats, &m.HostHash, &m.Settings, &status, &m.Records, &clock, &outcome,
		&m.Created, &started, &finished, &m.Lease.Epoch, &m.Lease.Node, &expires, &m.Reason, &absent, &m.Creator, &m.Account}
	if err := row.Scan(append(dest, more...)...); err != nil {
		return nil, err
	}
	m.Status, m.Clock = Status(status), engine.Millis(clock)
	for _, t := range []struct {
		dst *time.Time
		src *time.Time
	}{{&m.Started, started}, {&m.Finished, finished}, {&m.Lease.Expires, expires}, {&m.AbsentSince, absent}} {
		if t.src != nil {
			*t.dst = *t.src
		}
	}
	decodeMatch(&m, setup, seats, outcome)
	return &m, nil
}

// read bounds a read by the store's timeout.
func (s *Postgres) read(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.timeout)
}

// Get returns one match.
func (s *Postgres) Get(ctx context.Context, id string) (*Match, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	m, err := scanPgMatch(s.pool.QueryRow(ctx, `SELECT `+pgMatchColumns+` FROM matches m WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return m, s.fault(err)
}

// Log returns a match's log.
func (s *Postgres) Log(ctx context.Context, id string) ([][]byte, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT n, rec FROM records WHERE match_id = $1 ORDER BY n`, id)
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	return readLog(id, rows, s.fault)
}

// List returns matches, newest first.
func (s *Postgres) List(ctx context.Context, f Filter) ([]*Match, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT `+pgMatchColumns+` FROM matches m
		WHERE `+pgFilter+` ORDER BY m.created DESC, m.id LIMIT $3`,
		statusStrings(f.Statuses), f.Game, limitOr100(f.Limit))
	if err != nil {
		return nil, s.fault(err)
	}
	ms, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*Match, error) { return scanPgMatch(r) })
	return ms, s.fault(err)
}

// pgFilter keeps the matches m of a [Filter]'s statuses ($1) and game ($2).
const pgFilter = `(cardinality($1::text[]) = 0 OR m.status = ANY($1)) AND ($2 = '' OR m.game = $2)`

// Unfinished returns the ids of open and running matches, oldest first.
func (s *Postgres) Unfinished(ctx context.Context) ([]string, error) {
	return s.ids(ctx, `SELECT id FROM matches WHERE status IN ('open', 'running') ORDER BY created, id`)
}

// Creations returns the creations since a time, oldest first.
func (s *Postgres) Creations(ctx context.Context, since time.Time) ([]Creation, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT creator, created FROM matches WHERE creator <> '' AND created >= $1 ORDER BY created`, since)
	if err != nil {
		return nil, s.fault(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Creation, error) {
		var c Creation
		err := r.Scan(&c.Creator, &c.Created)
		return c, err
	})
	return out, s.fault(err)
}

func (s *Postgres) ids(ctx context.Context, q string, args ...any) ([]string, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	return readIDs(rows, s.fault)
}
