/* kmscon-felis/notice.c: see notice.h. */
#include "kmscon-felis/notice.h"

#include <stdio.h>
#include <string.h>

void kf_notice_init(struct kf_notice *n)
{
	memset(n, 0, sizeof(*n));
}

static void set_text(char dst[KF_NOTICE_TEXT_MAX + 1], const char *text)
{
	snprintf(dst, KF_NOTICE_TEXT_MAX + 1, "%s", text ? text : "");
}

enum kf_notice_change kf_notice_ask(struct kf_notice *n, const char *text, uint64_t now)
{
	char t[KF_NOTICE_TEXT_MAX + 1];

	set_text(t, text);
	if (!t[0])
		return KF_NOTICE_SAME;
	n->off_ns = now + KF_NOTICE_SHOW_NS;
	if (n->on && !strcmp(t, n->text)) {
		n->pending = false; /* the latest text is the one shown */
		return KF_NOTICE_SAME;
	}
	if (n->on && now - n->changed_ns < KF_NOTICE_GAP_NS) {
		memcpy(n->next, t, sizeof(t));
		n->pending = true;
		return KF_NOTICE_SAME;
	}
	memcpy(n->text, t, sizeof(t));
	n->on = true;
	n->pending = false;
	n->changed_ns = now;
	return KF_NOTICE_TEXT;
}

uint64_t kf_notice_due(const struct kf_notice *n)
{
	if (!n->on)
		return 0;
	/* (a kept text is always due before the end: off_ns >= changed_ns + KF_NOTICE_SHOW_NS) */
	return n->pending ? n->changed_ns + KF_NOTICE_GAP_NS : n->off_ns;
}

enum kf_notice_change kf_notice_expire(struct kf_notice *n, uint64_t now)
{
	if (!n->on)
		return KF_NOTICE_SAME;
	if (n->pending && now >= n->changed_ns + KF_NOTICE_GAP_NS) {
		memcpy(n->text, n->next, sizeof(n->text));
		n->pending = false;
		n->changed_ns = now;
		return KF_NOTICE_TEXT;
	}
	if (n->pending || now < n->off_ns)
		return KF_NOTICE_SAME;
	kf_notice_init(n);
	return KF_NOTICE_GONE;
}
