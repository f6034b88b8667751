//! The sense stage's inner loops: per shape, a bit per neighbour saying
//! whether the shape contains it, computed over fixed blocks of
//! vectors of four lanes.

use glam::Vec3;
use wide::f32x4;

use super::neighbourhood::Neighbourhood;
use crate::data::CompiledShape;

pub(crate) use crate::data::agent_grid::BLOCK;

/// Writes into `mask` whether `shape` of an agent at `eye` facing `facing`
/// contains each element of `near` (bit `e % 64` of word `e / 64` for
/// element `e`). The sphere and cone work on fixed blocks of four-lane
/// vectors ([`wide::f32x4`]; one move-mask per four bits); every bit is
/// what [`CompiledShape::contains`] says (see [`cone_block`]).
pub(crate) fn shape_mask(
    shape: CompiledShape,
    eye: Vec3,
    facing: Vec3,
    near: &Neighbourhood,
    mask: &mut Vec<u64>,
) {
    // One loop per shape, so that nothing of the others' set-up runs.
    match shape {
        CompiledShape::Sphere { radius_sq } => {
            block_mask(near, mask, |x, y, z| sphere_block(eye, radius_sq, x, y, z))
        }
        CompiledShape::Cone {
            range_sq,
            cos_half_fov,
        } => block_mask(near, mask, |x, y, z| {
            cone_block(eye, facing, range_sq, cos_half_fov, x, y, z)
                .unwrap_or_else(|| exact_block(shape, eye, facing, (x, y, z)))
        }),
        _ => block_mask(near, mask, |x, y, z| {
            exact_block(shape, eye, facing, (x, y, z))
        }),
    }
}

/// Writes into `mask` the bits `block` computes for each block of `near`.
#[inline(always)]
fn block_mask(
    near: &Neighbourhood,
    mask: &mut Vec<u64>,
    block: impl Fn(&[f32; BLOCK], &[f32; BLOCK], &[f32; BLOCK]) -> u64,
) {
    mask.clear();
    let n = near.padded;
    mask.resize(n.div_ceil(64), 0);
    let blocks = near.xs[..n]
        .chunks_exact(BLOCK)
        .zip(near.ys[..n].chunks_exact(BLOCK))
        .zip(near.zs[..n].chunks_exact(BLOCK));
    for (b, ((x, y), z)) in blocks.enumerate() {
        let (Ok(x), Ok(y), Ok(z)) = (
            <&[f32; BLOCK]>::try_from(x),
            <&[f32; BLOCK]>::try_from(y),
            <&[f32; BLOCK]>::try_from(z),
        ) else {
            continue;
        };
        mask[b * BLOCK / 64] |= block(x, y, z) << (b * BLOCK % 64);
    }
}

/// One block's coordinates: x, y and z of its [`BLOCK`] elements.
type Xyz<'a> = (&'a [f32; BLOCK], &'a [f32; BLOCK], &'a [f32; BLOCK]);

/// `v`'s components, each in all four lanes.
#[inline(always)]
fn lanes(v: Vec3) -> (f32x4, f32x4, f32x4) {
    (f32x4::splat(v.x), f32x4::splat(v.y), f32x4::splat(v.z))
}

/// The lanes of a block, four at a time.
const QUADS: usize = BLOCK / 4;

/// Quad `q` (lanes `4q..4q + 4`) of a block's coordinates, loaded when
/// used (all twelve at once would not fit the vector registers).
#[inline(always)]
fn quad(v: &[f32; BLOCK], q: usize) -> f32x4 {
    let (chunks, _) = v.as_chunks::<4>();
    f32x4::new(chunks[q % QUADS])
}

/// The sphere's bits: `radius_sq > |d|²`, as `contains`.
#[inline(always)]
fn sphere_block(
    eye: Vec3,
    radius_sq: f32,
    x: &[f32; BLOCK],
    y: &[f32; BLOCK],
    z: &[f32; BLOCK],
) -> u64 {
    let (ex, ey, ez) = lanes(eye);
    let r2 = f32x4::splat(radius_sq);
    (0..QUADS).fold(0u64, |bits, q| {
        let (dx, dy, dz) = (quad(x, q) - ex, quad(y, q) - ey, quad(z, q) - ez);
        let inside = r2.simd_gt(dx * dx + dy * dy + dz * dz);
        bits | u64::from(inside.to_bitmask()) << (4 * q)
    })
}

/// The cone's bits without a square root or a division: the angle test
/// squared, `(facing · d)² > cos² |d|²` with the sign of `facing · d`.
/// `None` where that is too close to call in f32 (within [`ANGLE_BAND`]
/// of the edge, about 1 in 10⁴ candidates): the caller then asks
/// [`exact_block`], so every bit is what [`CompiledShape::contains`]
/// says.
#[inline(always)]
fn cone_block(
    eye: Vec3,
    facing: Vec3,
    range_sq: f32,
    cos_half_fov: f32,
    x: &[f32; BLOCK],
    y: &[f32; BLOCK],
    z: &[f32; BLOCK],
) -> Option<u64> {
    let ((ex, ey, ez), (fx, fy, fz)) = (lanes(eye), lanes(facing));
    let cos_sq = f32x4::splat(cos_half_fov * cos_half_fov);
    let (range, band, zero) = (
        f32x4::splat(range_sq),
        f32x4::splat(ANGLE_BAND),
        f32x4::ZERO,
    );
    let ahead = cos_half_fov >= 0.0;
    let (mut hit, mut unsure) = (0u64, 0u64);
    for q in 0..QUADS {
        let (dx, dy, dz) = (quad(x, q) - ex, quad(y, q) - ey, quad(z, q) - ez);
        let dist_sq = dx * dx + dy * dy + dz * dz;
        let along = fx * dx + fy * dy + fz * dz;
        // > 0: the cosine of the angle to the target is further from 0
        // than the half field of view's.
        let m = along * along - cos_sq * dist_sq;
        let within = range.simd_gt(dist_sq) & dist_sq.simd_ne(zero);
        let inside = if ahead {
            along.simd_gt(zero) & m.simd_gt(zero)
        } else {
            along.simd_ge(zero) | m.simd_lt(zero)
        };
        // NaN (a degenerate facing) is never clear either.
        let clear = m.abs().simd_gt(band * dist_sq);
        hit |= u64::from((within & inside).to_bitmask()) << (4 * q);
        unsure |= u64::from((within & !clear).to_bitmask()) << (4 * q);
    }
    (unsure == 0).then_some(hit)
}

/// How close to the cone's edge [`cone_block`]'s squared test defers to
/// the exact one, relative to the squared distance: `|(f·d)² − cos²|d|²|`
/// below `1e-4 |d|²`. The squared test's f32 error is below `1e-6 |d|²`
/// and the exact test's below `1e-6` in the cosine, so outside the band
/// both agree with the real numbers and with each other.
const ANGLE_BAND: f32 = 1e-4;

/// The block's bits as [`CompiledShape::contains`] says, element by
/// element: the shapes without a kernel of their own, and the rare cone
/// blocks [`cone_block`] cannot call (kept out of line, off its hot path).
#[inline(never)]
fn exact_block(shape: CompiledShape, eye: Vec3, facing: Vec3, (x, y, z): Xyz<'_>) -> u64 {
    (0..BLOCK).fold(0u64, |bits, e| {
        let hit = shape.contains(eye, facing, Vec3::new(x[e], y[e], z[e]));
        bits | u64::from(hit) << e
    })
}

/// Calls `f` with the index of every set bit of `mask`, ascending.
#[inline(always)]
pub(crate) fn for_each_bit(mask: &[u64], mut f: impl FnMut(usize)) {
    for (w, &word) in mask.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            f(w * 64 + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
}

#[cfg(test)]
mod kernel_tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::data::Shape;

    /// Points on and around the cone's edge (where the squared test is
    /// too close to call), plus the eye itself and points out of range,
    /// for fields of view below and above 180°: every bit equals
    /// `CompiledShape::contains`.
    #[test]
    fn the_cone_kernel_equals_contains_at_its_edge() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x2545_f491);
        let mut next = move || rng.random::<f32>();
        for fov in [1.0f32, 60.0, 90.0, 120.0, 179.9, 180.0, 200.0, 300.0, 359.0] {
            let shape = Shape::Cone {
                range: 15.0,
                fov_deg: fov,
            }
            .compile();
            let eye = Vec3::new(next() * 100.0, next(), next() * 100.0);
            let facing = Vec3::new(next() - 0.5, 0.0, next() - 0.5).normalize();
            let half = (fov / 2.0).to_radians();
            let mut near = Neighbourhood::default();
            for k in 0..4096 {
                // Angles within a hair of the edge, either side, and some anywhere.
                let off = match k % 4 {
                    0 => (next() - 0.5) * 1e-5,
                    1 => (next() - 0.5) * 1e-3,
                    2 => (next() - 0.5) * 6.3,
                    _ => 0.0,
                };
                let side = if k % 8 < 4 { 1.0 } else { -1.0 };
                let a = facing.z.atan2(facing.x) + side * (half + off);
                let r = if k % 97 == 0 { 0.0 } else { next() * 17.0 };
                let p = eye + Vec3::new(a.cos() * r, (next() - 0.5) * 0.1, a.sin() * r);
                near.xs.push(p.x);
                near.ys.push(p.y);
                near.zs.push(p.z);
            }
            near.padded = near.xs.len();
            let mut mask = Vec::new();
            shape_mask(shape, eye, facing, &near, &mut mask);
            for e in 0..near.padded {
                let p = Vec3::new(near.xs[e], near.ys[e], near.zs[e]);
                let bit = mask[e / 64] >> (e % 64) & 1 != 0;
                assert_eq!(bit, shape.contains(eye, facing, p), "fov {fov}, point {e}");
            }
        }
    }
}
