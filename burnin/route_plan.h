/* SPDX-License-Identifier: MIT */
#ifndef IBPROOF_BURNIN_ROUTE_PLAN_H
#define IBPROOF_BURNIN_ROUTE_PLAN_H

/*
 * The route-aware planner (issue 16): the inventory's ports placed on the
 * CA ports of the routes (route_ctx.c), the host order of the routing
 * engine (route_order.c), route-aware all-pairs (shifts in that order)
 * and cover (route_cover.c), and the coverage certificate of any schedule
 * (route_plan.c). Pure: files are read and written only by
 * burnin_route_plan() and the writers named below.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "burnin/burnin.h"
#include "burnin/route_model.h"

/* The inventory on the routes. */
struct route_ctx {
	const struct burnin_routes *r;
	int n_inv;
	int *ca_of_inv; /* [n_inv] CA index, -1 not in the routes */
	int *inv_of_ca; /* [n_cas] inventory index, -1 absent */
	int n_unmapped;
	/* the engine's host order: slot -> inventory index, -1 a hole */
	int *slot_inv;
	int n_slots;
	bool order_from_file;
	bool *cable_up; /* [n_cables] switch to a switch further from CAs */
	bool *from_ca; /* [n_cables] a host link out of its CA */
};

/* Maps inv[n] by port GUID; 0 or -ENOMEM. */
int route_ctx_init(struct route_ctx *c, const struct burnin_routes *r,
		   const struct dpath_port *inv, int n);
void route_ctx_free(struct route_ctx *c);

/*
 * The slot order: from an opensm-ftree-ca-order.dump (path not NULL:
 * "0xLID<TAB>NAME" per slot, 0xFFFF a DUMMY hole; -EINVAL with
 * "FILE:LINE: ..." in err), else derived from the tables (hosts grouped by
 * leaf, each leaf a block, within it by the up-port other leaves route
 * to it through). Ports not in the routes come last. 0 or -errno.
 */
int route_order_build(struct route_ctx *c, const char *ca_order, char *err,
		      size_t err_len);

/*
 * What route-aware all-pairs can do on the routes: no contention-free
 * plan has fewer than `lower` rounds, the most ordered pairs of present
 * hosts the tables route over one directed cable (`cable`, `flows` of
 * them), and at least the ports less one (a port sends to one partner a
 * round). The plan: `shifts` rounds of shifts, `extra` rounds packed,
 * `shared` flows placed sharing a cable past --max-rounds.
 */
struct route_bound {
	int lower, cable, flows;
	int shifts, extra, shared;
};

/*
 * All-pairs as duplex shifts of the slot order (holes dropped); the
 * flows a shift could not keep alone on their cables packed into extra
 * rounds until every flow is alone on each cable it crosses, or, with
 * max_rounds > 0, into at most max_rounds rounds in all (then sharing the
 * fewest cables). b (may be NULL) gets the bound and the plan's counts.
 * 0, -ERANGE when max_rounds is below the shifts' rounds (b->shifts says
 * how many), -ENOMEM.
 */
int route_all_pairs(const struct route_ctx *c, int max_rounds,
		    struct burnin_schedule *s, struct route_bound *b);

/*
 * Cover: the fewest rounds, every flow alone on each cable it crosses,
 * loading every reachable directed switch-to-switch cable, each up-link
 * in rounds with flows from 2 different hosts where 2 can reach it, and
 * every cable its flows cross told apart from every other where a pair
 * of present hosts can (route_separate()).
 */
int route_cover(const struct route_ctx *c, uint64_t seed,
		struct burnin_schedule *s);

/*
 * Extra rounds appended to s, packed first-fit (route_pack.c): a flow
 * (CA src -> CA dst over path) goes into the first of them where src
 * sends nothing, dst receives nothing and no cable of path is loaded.
 * Per resource (a port's sends, a port's receives, a cable) a bitset of
 * the extra rounds using it and the first round it is free in.
 */
struct route_placed;
struct route_pack {
	const struct route_ctx *c;
	int nc, ncas, nres;
	int first_round; /* index in s of the first extra round */
	int n, max_rounds; /* extra rounds; at most (INT_MAX: no limit) */
	int words; /* 64-round words per resource */
	uint64_t *busy; /* [nres][words] */
	int *free_from; /* [nres]: the first extra round it is free in */
	struct route_placed *placed; /* merged into s by finish */
	size_t n_placed, cap_placed;
	int shared; /* flows placed past max_rounds, sharing cables */
};

void route_pack_init(struct route_pack *p, const struct route_ctx *c,
		     const struct burnin_schedule *s, int max_rounds);
/*
 * 1 placed, -ENOMEM. Past max_rounds extra rounds: into the extra round
 * where its ports are free and the fewest of its cables loaded, else
 * into round home of s (>= 0: where its ports are known free), else a
 * new round.
 */
int route_pack_place(struct route_pack *p, int src, int dst, const int *path,
		     int n, int home);
/* The flow src -> dst (CAs) into round `round` of s, which the caller
 * knows has its ports and cables free; 1 or -ENOMEM. */
int route_pack_home(struct route_pack *p, int round, int src, int dst);
/* The extra round first-fit would place this flow in (p->n: a new one). */
int route_pack_fit(const struct route_pack *p, int src, int dst,
		   const int *path, int n);
/* Asks the memory for what placing this flow will read (a hint). */
void route_pack_prefetch(const struct route_pack *p, int src, int dst,
			 const int *path, int n);
/* The placed pairs merged into s (s unchanged since init); 0, -ENOMEM. */
int route_pack_finish(struct route_pack *p, struct burnin_schedule *s);
void route_pack_free(struct route_pack *p);

/*
 * Flows kept aside with their paths (route_flows.c): all-pairs' flows a
 * shift could not keep alone on their cables, each with its home round
 * (the shift it came from).
 */
struct route_flow {
	int src, dst, home; /* CA indices; a round of s */
	uint32_t first; /* its cables: cables[first..next flow's first) */
};

struct route_flows {
	struct route_flow *f;
	int *cables;
	size_t n, cap, n_cables, cap_cables;
};

int route_flows_add(struct route_flows *f, int src, int dst, int home,
		    const int *path, int n);
void route_flows_free(struct route_flows *f);

/*
 * The flows f packed by route_pack into extra rounds of s, the flows of
 * the busiest resources (a cable, a port's sends or receives) first; at
 * most max_extra extra rounds (INT_MAX: no limit). *shared gets the flows
 * placed sharing a cable. 0 or -ENOMEM.
 */
int route_pack_flows(const struct route_ctx *c, const struct route_flows *f,
		     int max_extra, struct burnin_schedule *s, int *shared);

/*
 * Which directed cables a plan tells apart (route_ident.c, issue 31): two
 * cables are told apart when some planned flow crosses one and not the
 * other. Per cable its signature (the set of flows crossing it, hashed),
 * one flow crossing it, and its group: the cables of the same signature,
 * led by the smallest index (leader), linked in ascending order by next.
 * A cable alone in its group is identifiable.
 */
struct route_ident {
	int n_cables;
	uint64_t *h1, *h2; /* [n_cables] sums of per-flow hashes */
	int *n_flows; /* [n_cables] flows crossing it */
	int *src, *dst; /* [n_cables] one flow crossing it (CA), -1 none */
	int *leader; /* [n_cables] its group's smallest cable, -1 no flow */
	int *next; /* [n_cables] the next cable of its group, -1 last */
	int *size; /* [leader] its group's size */
	int loaded; /* cables some flow crosses */
	int identifiable; /* of them, alone in their group */
	int groups; /* groups of two or more */
};

int route_ident_init(struct route_ident *id, int n_cables);
void route_ident_free(struct route_ident *id);
/* Flow number `flow` (unique in the plan) from CA src to dst over path. */
void route_ident_flow(struct route_ident *id, uint64_t flow, int src, int dst,
		      const int *path, int n);
/* The groups, once every flow is in; 0 or -ENOMEM. */
int route_ident_group(struct route_ident *id);

/* Why a group's cables are not told apart. */
enum route_why_code {
	ROUTE_WHY_UNPLANNED, /* a pair of present hosts would: src -> dst */
	ROUTE_WHY_ABSENT, /* only a pair with a host not in the plan would */
	ROUTE_WHY_ROUTING, /* no pair would (every one tried): same traffic */
	ROUTE_WHY_UNSEARCHED, /* the search budget was spent */
};

struct route_why {
	enum route_why_code why;
	int src, dst; /* the pair that would split it (CA), -1 none */
};

/*
 * Why lead's group is not told apart: a pair crossing some but not all of
 * its cables, searched among every source to the destination of one of
 * its flows and every destination from that flow's source, then among
 * every flow crossing one of its cables (present hosts first, then every
 * CA of the routes). ROUTE_WHY_ROUTING only when every such flow was
 * tried. Each path tried costs 1 or 2 of *budget; none left:
 * ROUTE_WHY_UNSEARCHED.
 */
void route_ident_why(const struct route_ctx *c, const struct route_ident *id,
		     int lead, long *budget, struct route_why *w);

/* "unplanned", "host-absent", "routing", "unsearched". */
const char *route_why_name(enum route_why_code w);
/* The reason in words, naming the pair that would split the group. */
void route_why_text(const struct route_ctx *c, const struct route_why *w,
		    char *buf, size_t len);

/*
 * Cover's last step (route_separate.c): for each group of cables the
 * plan does not tell apart, flows that split it (near its flows' ends in
 * the host order, then every source to its destination and every
 * destination from its source), packed into extra rounds, each flow alone
 * on its cables. 0 or -ENOMEM.
 */
int route_separate(const struct route_ctx *c, struct burnin_schedule *s);

/* The certificate of a schedule over the routes. */
struct route_cert {
	int n_rounds, n_cables;
	/* round-major loads: round r's entries load[lstart[r]..lstart[r+1]),
	 * each (cable << 8 | min(flows, 255)) */
	uint32_t *load;
	size_t n_load, cap_load;
	int *lstart;
	/* per cable */
	int *rounds_loaded;
	int *rounds_contended;
	bool *reachable; /* some pair of present hosts crosses it */
	bool *one_source; /* an up-link only one host's flows reach */
	/* totals over inter-switch cables */
	int inter, loaded, contended_cables, contended_rounds, unreachable;
	int up_single; /* up-links loaded from one host only */
	int flows, flows_no_route;
	struct route_ident ident; /* which cables its flows tell apart */
	/* route-aware all-pairs (has_bound): its bound and counts, the
	 * --max-rounds cap (0 none) and the predicted wall time; set by
	 * burnin_route_plan() */
	bool has_bound;
	struct route_bound bound;
	int max_rounds;
	double predicted_s;
	/* route_ar.h: flows on adaptive paths (--allow-adaptive), SL */
	int adaptive_flows, sl;
};

/*
 * Evaluates s (pairs are inventory indices) over the routes: which
 * cables each round loads and with how many flows. Reachability is
 * computed from the tables. 0 or -ENOMEM.
 */
int route_cert_build(const struct route_ctx *c, const struct burnin_schedule *s,
		     struct route_cert *cert);
void route_cert_free(struct route_cert *cert);

/* The coverage certificate as JSON Lines (docs/burnin.md); 0 or -errno. */
int route_cert_write(const struct route_ctx *c, const struct route_cert *cert,
		     const char *schedule, FILE *out);
/* The rounds in the pairs:FILE format; 0 or -errno. */
int route_plan_write(const struct dpath_port *inv,
		     const struct burnin_schedule *s, FILE *out);

/*
 * Rank 0's plan with --routes: loads the routes, maps the inventory,
 * builds the schedule (route-aware all-pairs and cover; any other through
 * burnin_schedule_build()), prints the certificate on --dry-run beside the
 * route-blind plan's counts, writes --coverage and --plan. With keep the
 * loaded routes go to *keep on success (the caller frees them with
 * burnin_routes_free()); otherwise they are freed. IBP_EXIT_*.
 */
int burnin_route_plan(const struct burnin_config *cfg, struct dpath_port *inv,
		      int n, struct burnin_schedule *s,
		      struct burnin_routes **keep);

/*
 * After a run with --routes: one not-tested finding (warn, subject the
 * cable's two ends, evidence part "cables" and reason) per
 * switch-to-switch cable no pair of present hosts is routed over
 * ("unreachable"), and, when unproven says why no load proof showed the
 * loaded ones loaded, per loaded one ("no-load-proof"), as for each one a
 * load proof that ran (proof, or NULL) never decided; each handed to
 * put (which takes the reference). *count: the switch-to-switch cables in
 * scope (cover, all-pairs: all; another schedule: those it loads and the
 * unreachable), tested and not (issue 32). 0 or the first error.
 */
struct burnin_scope_count;
struct burnin_load_proof;
int burnin_route_not_tested(const struct burnin_config *cfg,
			    const struct dpath_port *inv, int n,
			    const struct burnin_schedule *s,
			    const char *unproven,
			    const struct burnin_load_proof *proof,
			    struct burnin_scope_count *count,
			    int (*put)(void *arg, json_t *finding), void *arg);

#endif
