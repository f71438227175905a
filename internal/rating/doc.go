// Package rating is Sortie's rating model alone: numbers in, numbers out,
// no store. It knows no game and no account; the server keeps ratings and
// says which matches count, the games say what a result is (the engine's
// rated result), and the lab measures what fairness needs (baselines.json).
//
// # The model
//
// Each player's skill is a normal belief, [Rating] (μ, σ). Matches update
// it with the Bayesian approximation of Weng and Lin ("A Bayesian
// approximation method for online ranking", JMLR 12 (2011)), Algorithm 4:
// the Plackett–Luce model of a ranking of teams, each team's strength the
// sum of its members'. [Model.Rate] is that algorithm, written from the
// paper, with one generalisation: a member may carry a weight in its
// side's strength, so that sides can also be compared by their mean
// ([Mean]); with weights of one it is the paper's update exactly.
//
// Defaults ([Default]): μ₀ = 25, σ₀ = 25/3, β = σ₀/2, κ = 0.0001 (the
// paper's floor on the variance factor), and a dynamics τ = σ₀/100 added
// in quadrature to every σ before an update. τ keeps σ from shrinking to
// nothing over hundreds of matches, so that a player who improves is
// followed; it is small (a thousand matches without information would
// add about 2.6 to σ), and it is what the reference implementation's
// figures assume.
//
// Before a match, [Model.WinChances] gives each side's chance of finishing
// first. By default it is the model's own, Plackett–Luce's first place,
// e^{μᵢ/c} / Σ e^{μₛ/c} (two sides: the logistic of (μ₁ − μ₂)/c), the
// chance each update moves a side's μ against: once ratings settle, these
// chances match how often sides win. The reference implementation's
// prediction (openskill's predict_win, the one players.md's figures give:
// 0.1695 for three new players against 3 × (30, 1), 0.9907 for four new
// players against two) is the Thurstone form, Φ((μ₁ − μ₂)/√(2β² + σ₁² +
// σ₂²)), available with [Model.Thurstone]; it is steeper than what the
// updates fit (Φ(x) against the logistic of x), and docs/ratings.md
// measures it overconfident in every game where the model's own chances
// are calibrated.
//
// # Free-for-all, teams, co-op
//
// [Model.RateMatch] and [Model.Chances] rate a [Match] by its [Family]:
//
//   - Free for all: every seat a side, summed (the plain model).
//   - Team: the plain model sums the members' skills, so unequal sides come
//     out absurd: four new players are given 99% against two (the
//     reference's figure; 91% in the model's own form). Sides of the
//     team family are compared by their mean player, plus a role handicap
//     ([Model.Handicaps]) from the side's baseline win rate in that game,
//     variant, player count and composition of sides, measured by the lab
//     with hard bots on every seat. The handicap is the μ offset that makes
//     the model expect that baseline between two sides of equally skilled,
//     established players: h₁ − h₂ = √2·β·logit(w₁). It is in the same
//     units as skill, and works on both halves of the model: the chances
//     players see before a match (and the matchmaker pairs on) read
//     "equal players, this role" as the game's own balance, and the update
//     credits a side for beating the odds of its role, never for holding
//     it (between equal players nobody's μ drifts with the roles). With a side
//     of one player (a Guard) against three (the Prisoners), each
//     Prisoner carries a third of the side and moves a third as far.
//   - Co-op: the team plays a benchmark team of its own size, both
//     weighed by their mean member ([Model.Benchmark]; the reference
//     figures sum them, which [Model.CoopSum] keeps for comparison: the
//     benchmark already holds what the team's size does, and a sum counts
//     each member's skill again, over-confident in the lab's measures).
//     The benchmark is set
//     from the success rate of hard bots in that variant (difficulty) and
//     player count, so that a team of established players of μ = Anchor
//     (μ₀) is expected to succeed exactly as often: the hard bot's level
//     is the co-op scale's anchor, whatever the difficulty and the team's
//     size, and a harder variant costs a losing team less and pays a
//     winning one more. A match of the team family with a single side (Room
//     25's Suspicion when no Guard was dealt) is rated the same way.
//
// A variant the lab did not measure has no fair handicap or benchmark:
// those matches give [ErrNotMeasured], and the server should not rate them.
//
// # Display
//
// People see [Rating.Display], μ − 3σ (never below 0): a new player shows
// 0 and climbs as the model learns, and a rating is only as high as the
// model is sure of.
// A rating is uncertain — shown with "?" and kept off leaderboards, as
// lichess does with provisional ratings — while σ > 5
// ([Model.IsUncertain]): until the model has learned almost two thirds of
// the variance it started with (σ² from 69 to 25). σ reaches 5 after
// about 20 two-player matches or co-op games of three, and 27 four-player
// free-for-alls; a Prisoner among three, who carries a third of the side,
// takes longer, a Guard less. A threshold much higher would rank players
// on two or three games; much lower, it would keep them waiting for
// dozens.
package rating
