/* drm/assign.c: which CRTC and primary plane each display gets. A maximum matching of connectors to CRTCs (each
 * connector's encoders allow some CRTCs, and an encoder drives one connector at a time; on atomic cards each CRTC
 * needs a primary plane of its own whose possible_crtcs holds it), found as a maximum flow on the unit-capacity
 * network
 *
 *   source -> connector -> encoder in -> encoder out -> CRTC in -> CRTC out -> plane -> sink
 *
 * (an encoder and a CRTC are each split in two so that each carries one connector). The displays shown already are
 * put in first as they are; every other connector, in connector order, is then given a CRTC by the shortest
 * augmenting path from it, which moves a shown display to another CRTC (or encoder) only when there is no other way
 * to show the new one. A shown display is never left without one (an augmenting path never unmatches a matched
 * connector), and a rescan with nothing new moves nothing (a maximum matching has no augmenting path). Taking the
 * first free CRTC in connector order left a display dark whose only CRTC an earlier connector had taken although it
 * could have used another; leaving encoders out gave two connectors that share one (a DVI-I port's analog half and
 * a VGA port on one DAC) a CRTC each, and the kernel refused the modeset that routed both through it. */
#include <string.h>

#include "drm/drm-internal.h"

#define MAX_NODES (2 + DRM_MAX_OUTPUTS + 2 * DRM_ASSIGN_MAX_ENCODERS + 2 * DRM_ASSIGN_MAX_CRTCS + DRM_ASSIGN_MAX_PLANES)

struct net {
	unsigned n_conns, n_encs, n_crtcs, n_planes, nodes;
	bool planes;                       /* a CRTC needs a plane (atomic) */
	uint8_t cap[MAX_NODES][MAX_NODES]; /* residual capacities */
};

enum { SOURCE = 0 };
static unsigned sink(const struct net *g) { return g->nodes - 1; }
static unsigned conn_node(unsigned i) { return 1 + i; }
static unsigned enc_in(const struct net *g, unsigned e) { return 1 + g->n_conns + e; }
static unsigned enc_out(const struct net *g, unsigned e) { return 1 + g->n_conns + g->n_encs + e; }
static unsigned crtc_in(const struct net *g, unsigned k) { return 1 + g->n_conns + 2 * g->n_encs + k; }
static unsigned crtc_out(const struct net *g, unsigned k) { return 1 + g->n_conns + 2 * g->n_encs + g->n_crtcs + k; }
static unsigned plane_node(const struct net *g, unsigned p)
{
	return 1 + g->n_conns + 2 * g->n_encs + 2 * g->n_crtcs + p;
}

static void push(struct net *g, unsigned u, unsigned v)
{
	g->cap[u][v]--;
	g->cap[v][u]++;
}

/* The node connector i reaches CRTC k from: itself when it has no encoders (conns[i].encoders 0), else the out
 * node of a free encoder of its that can drive k; 0 (the source) when there is none. */
static unsigned via(const struct net *g, unsigned i, unsigned k)
{
	if (g->cap[conn_node(i)][crtc_in(g, k)])
		return conn_node(i);
	for (unsigned e = 0; e < g->n_encs; e++)
		if (g->cap[conn_node(i)][enc_in(g, e)] && g->cap[enc_in(g, e)][enc_out(g, e)] &&
		    g->cap[enc_out(g, e)][crtc_in(g, k)])
			return enc_out(g, e);
	return SOURCE;
}

/* Puts connector i on CRTC k (and plane p) when all of that is still free. */
static bool seed(struct net *g, unsigned i, unsigned k, int p)
{
	unsigned c = conn_node(i), in = crtc_in(g, k), out = crtc_out(g, k), from = via(g, i, k);
	unsigned last = g->planes ? plane_node(g, (unsigned)p) : out;

	if (!g->cap[SOURCE][c] || from == SOURCE || !g->cap[in][out] || !g->cap[last][sink(g)] ||
	    (g->planes && !g->cap[out][last]))
		return false;
	push(g, SOURCE, c);
	if (from != c) {
		unsigned e = from - enc_out(g, 0);

		push(g, c, enc_in(g, e));
		push(g, enc_in(g, e), from);
	}
	push(g, from, in);
	push(g, in, out);
	if (g->planes)
		push(g, out, last);
	push(g, last, sink(g));
	return true;
}

/* A free plane for CRTC k in seed's sense, or -1. */
static int free_plane(const struct net *g, unsigned k)
{
	for (unsigned p = 0; p < g->n_planes; p++)
		if (g->cap[crtc_out(g, k)][plane_node(g, p)] && g->cap[plane_node(g, p)][sink(g)])
			return (int)p;
	return -1;
}

/* The shortest augmenting path from connector i to the sink (breadth first), pushed along. Its preferred CRTC is
 * not tried first here: taken, it is a shown display's, which would move for it while a free CRTC is left. */
static bool augment(struct net *g, unsigned i)
{
	unsigned queue[MAX_NODES], from[MAX_NODES] = {0}, head = 0, tail = 0, t = sink(g);
	bool seen[MAX_NODES] = {false};

	seen[SOURCE] = seen[conn_node(i)] = true;
	queue[tail++] = conn_node(i);
	while (head < tail && !seen[t]) {
		unsigned u = queue[head++];

		for (unsigned v = 0; v < g->nodes; v++) {
			if (seen[v] || !g->cap[u][v])
				continue;
			seen[v] = true;
			from[v] = u;
			queue[tail++] = v;
		}
	}
	if (!seen[t])
		return false;
	for (unsigned v = t; v != conn_node(i); v = from[v])
		push(g, from[v], v);
	push(g, SOURCE, conn_node(i));
	return true;
}

/* Where connector i's flow goes: its CRTC and plane. */
static void read_back(const struct net *g, unsigned i, struct drm_assign_conn *a)
{
	unsigned from = conn_node(i);

	a->crtc = a->plane = -1;
	/* flow on an edge shows as its reverse capacity: through which encoder, if any */
	for (unsigned e = 0; e < g->n_encs; e++)
		if (g->cap[enc_in(g, e)][conn_node(i)])
			from = enc_out(g, e);
	for (unsigned k = 0; k < g->n_crtcs; k++) {
		if (!g->cap[crtc_in(g, k)][from])
			continue;
		a->crtc = (int)k;
		for (unsigned p = 0; g->planes && p < g->n_planes; p++)
			if (g->cap[plane_node(g, p)][crtc_out(g, k)])
				a->plane = (int)p;
	}
}

unsigned drm_assign(struct drm_assign_conn *conns, unsigned n_conns, unsigned n_crtcs, const uint32_t *enc_crtcs,
		    unsigned n_encs, const uint32_t *plane_crtcs, unsigned n_planes, bool need_plane)
{
	struct net g; /* 29 KB */
	bool pinned[DRM_MAX_OUTPUTS];
	unsigned assigned = 0;

	if (n_conns > DRM_MAX_OUTPUTS)
		n_conns = DRM_MAX_OUTPUTS;
	if (n_crtcs > DRM_ASSIGN_MAX_CRTCS)
		n_crtcs = DRM_ASSIGN_MAX_CRTCS;
	if (n_encs > DRM_ASSIGN_MAX_ENCODERS)
		n_encs = DRM_ASSIGN_MAX_ENCODERS;
	if (!need_plane || n_planes > DRM_ASSIGN_MAX_PLANES)
		n_planes = need_plane ? DRM_ASSIGN_MAX_PLANES : 0;
	memset(&g, 0, sizeof(g));
	g.n_conns = n_conns;
	g.n_encs = n_encs;
	g.n_crtcs = n_crtcs;
	g.n_planes = n_planes;
	g.planes = need_plane;
	g.nodes = 2 + n_conns + 2 * n_encs + 2 * n_crtcs + n_planes;
	for (unsigned i = 0; i < n_conns; i++) {
		g.cap[SOURCE][conn_node(i)] = 1;
		for (unsigned e = 0; e < n_encs; e++)
			g.cap[conn_node(i)][enc_in(&g, e)] = (conns[i].encoders >> e) & 1;
		for (unsigned k = 0; k < n_crtcs && !conns[i].encoders; k++)
			g.cap[conn_node(i)][crtc_in(&g, k)] = (conns[i].crtcs >> k) & 1;
	}
	for (unsigned e = 0; e < n_encs; e++) {
		g.cap[enc_in(&g, e)][enc_out(&g, e)] = 1;
		for (unsigned k = 0; k < n_crtcs; k++)
			g.cap[enc_out(&g, e)][crtc_in(&g, k)] = (enc_crtcs[e] >> k) & 1;
	}
	for (unsigned k = 0; k < n_crtcs; k++) {
		g.cap[crtc_in(&g, k)][crtc_out(&g, k)] = 1;
		if (!need_plane)
			g.cap[crtc_out(&g, k)][sink(&g)] = 1;
		for (unsigned p = 0; p < n_planes; p++)
			g.cap[crtc_out(&g, k)][plane_node(&g, p)] = (plane_crtcs[p] >> k) & 1;
	}
	for (unsigned p = 0; p < n_planes; p++)
		g.cap[plane_node(&g, p)][sink(&g)] = 1;
	/* The displays shown, as they are; then new connectors on the CRTC the kernel drives them with (fbcon's),
	 * when free (such a one is then shown even if an earlier connector is left without a CRTC); then the rest,
	 * in connector order. */
	for (unsigned i = 0; i < n_conns; i++) {
		const struct drm_assign_conn *a = &conns[i];

		pinned[i] = false;
		if (a->keep_crtc < 0 || (unsigned)a->keep_crtc >= n_crtcs)
			continue;
		if ((!need_plane || (a->keep_plane >= 0 && (unsigned)a->keep_plane < n_planes)) &&
		    seed(&g, i, (unsigned)a->keep_crtc, a->keep_plane))
			continue;
		/* Shown where the masks say it cannot be (a plane not among plane_crtcs, a mask without its CRTC):
		 * it stays as it is, and its CRTC is no one else's. */
		pinned[i] = true;
		g.cap[SOURCE][conn_node(i)] = 0;
		g.cap[crtc_in(&g, (unsigned)a->keep_crtc)][crtc_out(&g, (unsigned)a->keep_crtc)] = 0;
	}
	for (unsigned i = 0; i < n_conns; i++) {
		const struct drm_assign_conn *a = &conns[i];

		if (a->keep_crtc < 0 && a->prefer_crtc >= 0 && (unsigned)a->prefer_crtc < n_crtcs &&
		    (!need_plane || free_plane(&g, (unsigned)a->prefer_crtc) >= 0))
			seed(&g, i, (unsigned)a->prefer_crtc,
			     need_plane ? free_plane(&g, (unsigned)a->prefer_crtc) : -1);
	}
	for (unsigned i = 0; i < n_conns; i++)
		if (g.cap[SOURCE][conn_node(i)])
			augment(&g, i);
	for (unsigned i = 0; i < n_conns; i++) {
		read_back(&g, i, &conns[i]);
		if (pinned[i])
			conns[i].crtc = conns[i].keep_crtc, conns[i].plane = conns[i].keep_plane;
		assigned += conns[i].crtc >= 0;
	}
	return assigned;
}
