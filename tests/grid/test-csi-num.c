/* tests/grid/test-csi-num.c: the byte handlers' number readers (grid/grid-csi-num.h) against a plain
 * reference, over every string of up to 4 bytes (5 for the length check) from digits and the bytes around
 * them ('/' and ':' beside the digits, ';', '?', ' ', a control, 0x80, 0xff): num_one must return the number
 * or -1 for anything but 0-4 digits, and digits_value (CUP's two numbers, one per 32-bit half) the same for
 * each half. num_one's 32-bit form and digits_value's multiplies (session 19) replaced shifts and adds. */
#include "harness.h"

#include "grid/grid-csi-num.h"
#include "grid/grid-internal.h"

static const uint8_t alphabet[] = {'0', '1', '5', '8', '9', '/', ':', ';', '?', ' ', 0x1b, 0x80, 0xff, 'a'};
enum { NA = sizeof(alphabet) };

/* the number of s[0..len), or -1 if a byte is not a digit */
static int ref_num(const uint8_t *s, unsigned len)
{
	int v = 0;
	for (unsigned i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

static void test_num_one(void)
{
	uint8_t s[40];
	for (unsigned len = 0; len <= 5; len++) {
		unsigned total = 1;
		for (unsigned i = 0; i < len; i++)
			total *= NA;
		for (unsigned k = 0; k < total; k++) {
			memset(s, '7', sizeof(s)); /* digits after the number: must not be read as part of it */
			unsigned r = k;
			for (unsigned i = 0; i < len; i++, r /= NA)
				s[i] = alphabet[r % NA];
			s[len] = 'C';
			const int want = len > 4 ? -1 : ref_num(s, len), got = num_one(s, len + 1);
			CHECK(got == want, "len %u k %u: %d, want %d", len, k, got, want);
		}
	}
}

/* two numbers, each 0-4 bytes, the second from byte 8 on */
static void test_digits_value(void)
{
	uint8_t a[40], b[40];
	for (unsigned la = 0; la <= 4; la++) {
		for (unsigned lb = 0; lb <= 4; lb++) {
			for (unsigned k = 0; k < 20000; k++) {
				/* a fixed pseudo-random walk over the alphabet's strings */
				uint32_t h = k * 2654435761u + la * 97 + lb;
				memset(a, '3', sizeof(a));
				memset(b, '3', sizeof(b));
				for (unsigned i = 0; i < la; i++, h = h * 1103515245u + 12345)
					a[i] = alphabet[(h >> 16) % (k & 1 ? NA : 5)];
				for (unsigned i = 0; i < lb; i++, h = h * 1103515245u + 12345)
					b[i] = alphabet[(h >> 16) % (k & 2 ? NA : 5)];
				uint64_t ka, kb, out = 0;
				const uint64_t x = digits4(a, la, &ka) | digits4(b, lb, &kb) << 32;
				const bool ok = digits_value(x, ka | kb << 32, &out);
				const int ra = ref_num(a, la), rb = ref_num(b, lb);
				CHECK(ok == (ra >= 0 && rb >= 0), "la %u lb %u k %u: ok %d", la, lb, k, ok);
				if (ok && ra >= 0 && rb >= 0)
					CHECK((int)(out & 0xffff) == ra && (int)(out >> 32) == rb && !(out & 0xffff0000ffff0000ull),
					      "la %u lb %u k %u: %llx, want %d %d", la, lb, k, (unsigned long long)out, ra, rb);
			}
		}
	}
	/* 9999;9999 and 0000;0000: the sums' largest and smallest */
	const uint8_t *n9 = (const uint8_t *)"9999;9999...", *n0 = (const uint8_t *)"0000;0000...";
	for (int i = 0; i < 2; i++) {
		const uint8_t *s = i ? n0 : n9;
		uint64_t ka, kb, out = 1;
		const uint64_t lo = digits4(s, 4, &ka), hi = digits4(s + 5, 4, &kb);
		const bool ok = digits_value(lo | hi << 32, ka | kb << 32, &out);
		CHECK(ok && out == (i ? 0 : (9999ull | 9999ull << 32)), "%s: %llx", (const char *)s, (unsigned long long)out);
	}
}

/* CUP from its bytes (grid-csi.c's bytes_cup through grid__csi_bytes_moves): random strings
 * of 0-11 bytes before 'H' from digits, ';' and the bytes around them, against a plain reading: handled (n) only
 * for at most one ';' and 0-4 digits each side, the cursor then at the numbers (0 and omitted meaning 1,
 * clamped to the screen); declined (0) otherwise, the cursor untouched. The bytes after the 'H' are digits or
 * ';' (bytes_cup finds the ';' without masking the bytes at and past the final: one there must not count). */
static void test_cup(void)
{
	static const uint8_t cup_alpha[] = {'0', '1', '2', '5', '9', ';', ';', '?', ':', '/', ' ', 0x80};
	struct t_term *t = t_new(80, 24, 0);
	struct grid *g = t->g;
	uint8_t s[48];
	uint32_t h = 12345;
	for (int k = 0; k < 400000; k++) {
		const unsigned e = (unsigned)k % 12;
		/* (the alphabet and the bytes after the 'H' by k / 12: k's low bits follow e) */
		memset(s, k / 24 & 1 ? ';' : '4', sizeof(s));
		for (unsigned i = 0; i < e; i++, h = h * 1103515245u + 12345)
			s[i] = cup_alpha[(h >> 16) % (k / 12 & 1 ? sizeof(cup_alpha) : 7)];
		s[e] = 'H';
		int semis = 0, semi_at = -1;
		for (unsigned i = 0; i < e; i++)
			if (s[i] == ';')
				semis++, semi_at = (int)i;
		const unsigned p = semis ? (unsigned)semi_at : e;
		const int r = semis <= 1 && p <= 4 ? ref_num(s, p) : -1;
		const int c = semis == 0 ? 0 : e - p - 1 <= 4 ? ref_num(s + p + 1, e - p - 1) : -1;
		g->cx = 7, g->cy = 3;
		const size_t got = grid__csi_bytes_moves(g, s, e + 1);
		if (r < 0 || c < 0) {
			CHECK(got == 0 && g->cx == 7 && g->cy == 3, "k %d '%.*s': %zu, declined expected", k, (int)e + 1,
			      (const char *)s, got);
			continue;
		}
		const int want_y = (r > 24 ? 24 : r ? r : 1) - 1, want_x = (c > 80 ? 80 : c ? c : 1) - 1;
		CHECK(got == e + 1 && g->cx == want_x && g->cy == want_y, "k %d '%.*s': %zu at %d,%d, want %d,%d", k,
		      (int)e + 1, (const char *)s, got, g->cx, g->cy, want_x, want_y);
	}
	t_free(t);
}

int main(void)
{
	test_num_one();
	test_digits_value();
	test_cup();
	return t_done("grid-csi-num");
}
