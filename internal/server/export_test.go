package server

import (
	"fmt"
	"time"

	"sortie/internal/notify"
)

// PlantFlaw plants a security flaw in c, for the tests that show the
// security checks catch it: keep-token, loose-cookie, enumerate,
// no-link-limit, no-origin-check, no-sign-in-rate.
func PlantFlaw(c *Config, name string) {
	switch name {
	case "keep-token":
		c.flaws.account.KeepToken = true
	case "loose-cookie":
		c.flaws.account.LooseCookie = true
	case "enumerate":
		c.flaws.account.Enumerate = true
	case "no-link-limit":
		c.flaws.account.NoLinkLimit = true
	case "no-origin-check":
		c.flaws.noOriginCheck = true
	case "no-sign-in-rate":
		c.flaws.noSignInRate = true
	default:
		panic(fmt.Sprintf("no flaw %q", name))
	}
}

// TuneNotify adjusts the notifier's configuration of servers made with c
// (its pace, a planted flaw).
func TuneNotify(c *Config, f func(*notify.Config)) { c.notifyTune = f }

// ShiftDailyClock moves the daily challenge's clock by d from the wall
// clock's (0 puts it back).
func ShiftDailyClock(d time.Duration) { dailyShift.Store(int64(d)) }

// RankDaily is rankDaily: it orders a day's table and ranks it.
var RankDaily = rankDaily
