/* drm/props.c: KMS property ids by name, looked up once per object. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <xf86drm.h>

#include "drm/drm-internal.h"

const char *const drm_conn_prop_names[CONN__COUNT] = {
	[CONN_CRTC_ID] = "CRTC_ID",
	[CONN_DPMS] = "DPMS",
};
const char *const drm_crtc_prop_names[CRTC__COUNT] = {
	[CRTC_ACTIVE] = "ACTIVE",
	[CRTC_MODE_ID] = "MODE_ID",
};
const char *const drm_plane_prop_names[PLANE__COUNT] = {
	[PLANE_TYPE] = "type",
	[PLANE_FB_ID] = "FB_ID",
	[PLANE_CRTC_ID] = "CRTC_ID",
	[PLANE_SRC_X] = "SRC_X",
	[PLANE_SRC_Y] = "SRC_Y",
	[PLANE_SRC_W] = "SRC_W",
	[PLANE_SRC_H] = "SRC_H",
	[PLANE_CRTC_X] = "CRTC_X",
	[PLANE_CRTC_Y] = "CRTC_Y",
	[PLANE_CRTC_W] = "CRTC_W",
	[PLANE_CRTC_H] = "CRTC_H",
	[PLANE_FB_DAMAGE_CLIPS] = "FB_DAMAGE_CLIPS",
};

void drm_props_match(const char *const *wanted, size_t n_wanted, const char *const *names,
		     const uint32_t *ids, size_t n, uint32_t *out)
{
	for (size_t w = 0; w < n_wanted; w++) {
		out[w] = 0;
		for (size_t i = 0; i < n; i++) {
			if (names[i] && strcmp(names[i], wanted[w]) == 0) {
				out[w] = ids[i];
				break;
			}
		}
	}
}

int drm_props_lookup(int fd, uint32_t obj, uint32_t type, const char *const *wanted, size_t n_wanted,
		     uint32_t *ids, uint64_t *values)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, obj, type);
	const char **names = NULL;
	int ret = 0;

	if (!props)
		return -errno;
	names = calloc(props->count_props + 1, sizeof(*names));
	drmModePropertyRes **res = calloc(props->count_props + 1, sizeof(*res));
	if (!names || !res) {
		ret = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < props->count_props; i++) {
		res[i] = drmModeGetProperty(fd, props->props[i]);
		names[i] = res[i] ? res[i]->name : NULL;
	}
	drm_props_match(wanted, n_wanted, names, props->props, props->count_props, ids);
	if (values) {
		for (size_t w = 0; w < n_wanted; w++) {
			values[w] = 0;
			for (uint32_t i = 0; i < props->count_props; i++)
				if (ids[w] && props->props[i] == ids[w])
					values[w] = props->prop_values[i];
		}
	}
	for (uint32_t i = 0; i < props->count_props; i++)
		drmModeFreeProperty(res[i]);
out:
	free(res);
	free(names);
	drmModeFreeObjectProperties(props);
	return ret;
}

int drm_prop_value(int fd, uint32_t obj, uint32_t type, uint32_t prop, uint64_t *value)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, obj, type);
	int ret = -ENOENT;

	if (!props)
		return -errno;
	for (uint32_t i = 0; i < props->count_props; i++) {
		if (props->props[i] == prop) {
			*value = props->prop_values[i];
			ret = 0;
			break;
		}
	}
	drmModeFreeObjectProperties(props);
	return ret;
}
