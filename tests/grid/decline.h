/* tests/grid/decline.h: a reference terminal that parses every CSI sequence the general way.
 *
 * The differential tests feed a stream whole to one terminal and a byte at a time to another, the second as
 * the reference for grid's bulk handlers (vt_sink.csi_bytes_final). Since the parser holds a sequence cut by
 * a feed's end back until it is complete and then hands it to those same handlers (vt__csi_tail), a byte at a
 * time no longer reaches the general path by itself: the reference must decline them, or the test compares
 * the bulk handlers with themselves.
 */
#ifndef TESTS_GRID_DECLINE_H
#define TESTS_GRID_DECLINE_H

#include "grid/grid-internal.h"
#include "harness.h"
#include "vt/vt.h"

static inline size_t t_csi_declined(void *ctx, const uint8_t *s, size_t n)
{
	(void)ctx, (void)s, (void)n;
	return 0;
}

/* t's parser hands no CSI sequence to grid's bulk handlers (grid never sets them again on such a terminal:
 * only its bulk SGR path switches the 'm' entry) */
static inline void t_decline_csi_bytes(struct t_term *t)
{
	for (unsigned f = 0x40; f < 0x7f; f++)
		vt_parser_set_csi_bytes(t->g->parser, (uint8_t)f, t_csi_declined);
}

#endif
