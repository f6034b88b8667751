//! The sense stage's inner loops: per shape, a bit per neighbour saying
//! whether the shape contains it, computed over fixed blocks of
//! straight-line arithmetic the compiler vectorises.

use glam::Vec3;

use super::neighbourhood::Neighbourhood;
use crate::data::CompiledShape;

pub(crate) use crate::data::agent_grid::BLOCK;

/// Writes into `mask` whether `shape` of an agent at `eye` facing `facing`
/// contains each element of `near` (bit `e % 64` of word `e / 64` for
/// element `e`). The sphere and cone work on fixed blocks of straight-line
/// arithmetic, which the compiler vectorises; they compute exactly what
/// [`CompiledShape::contains`] computes, operation for operation.
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
        }),
        _ => block_mask(near, mask, |x, y, z| {
            let mut bits = 0u64;
            for e in 0..BLOCK {
                let hit = shape.contains(eye, facing, Vec3::new(x[e], y[e], z[e]));
                bits |= u64::from(hit) << e;
            }
            bits
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

/// Packs a block of 0/1 flags into the low bits of a word (bit `e` for
/// flag `e`): per eight flags, one multiplication gathers the low bit of
/// each byte into the top byte.
#[inline(always)]
fn pack(flags: [u8; BLOCK]) -> u64 {
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let v = u128::from_le_bytes(flags);
    let (lo, hi) = (v as u64, (v >> 64) as u64);
    (lo.wrapping_mul(GATHER) >> 56) | (hi.wrapping_mul(GATHER) >> 56) << 8
}

#[inline(always)]
fn sphere_block(
    eye: Vec3,
    radius_sq: f32,
    x: &[f32; BLOCK],
    y: &[f32; BLOCK],
    z: &[f32; BLOCK],
) -> u64 {
    let mut hit = [0u8; BLOCK];
    for e in 0..BLOCK {
        let (dx, dy, dz) = (x[e] - eye.x, y[e] - eye.y, z[e] - eye.z);
        hit[e] = u8::from(radius_sq > dx * dx + dy * dy + dz * dz);
    }
    pack(hit)
}

#[inline(always)]
fn cone_block(
    eye: Vec3,
    facing: Vec3,
    range_sq: f32,
    cos_half_fov: f32,
    x: &[f32; BLOCK],
    y: &[f32; BLOCK],
    z: &[f32; BLOCK],
) -> u64 {
    let mut hit = [0u8; BLOCK];
    for e in 0..BLOCK {
        let (dx, dy, dz) = (x[e] - eye.x, y[e] - eye.y, z[e] - eye.z);
        let dist_sq = dx * dx + dy * dy + dz * dz;
        let inv = 1.0 / dist_sq.sqrt();
        let dot = facing.x * (dx * inv) + facing.y * (dy * inv) + facing.z * (dz * inv);
        hit[e] = u8::from((range_sq > dist_sq) & (dist_sq != 0.0) & (dot > cos_half_fov));
    }
    pack(hit)
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
