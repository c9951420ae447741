import sharp from "sharp";

// sharp, as every process of the app uses it (uploads, media variants, the demo's cover art). libvips
// keeps recent operations and their pixels in a cache (50 MB by default) for the case where the same
// image is processed again; here each image is processed once and its variants are files, so the
// cache only held memory: a new site's primary kept 246 MB after drawing the demo's covers, 204 MB
// without it (issue 13: 250 MB per process).
sharp.cache(false);

export default sharp;
