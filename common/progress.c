// SPDX-License-Identifier: MIT
/* One progress line for every long step: see progress.h. */
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/progress.h"

#define BAR 20
#define REDRAW_S 0.2

void progress_fmt_duration(double s, char *buf, size_t len)
{
	long t = (long)(s > 0 ? s + 0.5 : 0);

	if (t >= 3600)
		snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
	else
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
}

void progress_start_to(struct progress *p, const char *what, const char *unit,
		       uint64_t total, FILE *out)
{
	memset(p, 0, sizeof(*p));
	p->what = what;
	p->unit = unit;
	p->total = total;
	p->out = out;
	p->start = p->last = clock_mono_now();
	pthread_mutex_init(&p->lock, NULL);
}

void progress_start(struct progress *p, const char *what, const char *unit,
		    uint64_t total)
{
	progress_start_to(p, what, unit, total,
			  isatty(STDERR_FILENO) ? stderr : NULL);
}

static void draw(struct progress *p, uint64_t done, double now)
{
	uint64_t total = p->total > done ? p->total : done;
	int fill = total ? (int)(BAR * done / total) : BAR;
	double el = now - p->start;
	char bar[BAR + 1], eta[32] = "-";

	memset(bar, '#', (size_t)fill);
	memset(bar + fill, '.', (size_t)(BAR - fill));
	bar[BAR] = '\0';
	if (done && el > 0)
		progress_fmt_duration(el * (double)(total - done) /
					      (double)done,
				      eta, sizeof(eta));
	fprintf(p->out, "\r[%s] %s: %llu/%llu %s, ETA %s\033[K", bar, p->what,
		(unsigned long long)done, (unsigned long long)total, p->unit,
		eta);
	fflush(p->out);
	p->drawn = true;
}

void progress_add(struct progress *p, uint64_t n)
{
	uint64_t done = __atomic_add_fetch(&p->done, n, __ATOMIC_RELAXED);
	double now;

	if (!p->out || pthread_mutex_trylock(&p->lock))
		return;
	now = clock_mono_now();
	if (now - p->last >= REDRAW_S) {
		p->last = now;
		draw(p, done, now);
	}
	pthread_mutex_unlock(&p->lock);
}

void progress_end(struct progress *p)
{
	if (p->out && p->drawn) {
		fputs("\r\033[K", p->out);
		fflush(p->out);
	}
	pthread_mutex_destroy(&p->lock);
	p->out = NULL;
}
