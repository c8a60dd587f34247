//! PNG files by hand: the signature, IHDR, one zlib-compressed IDAT and IEND,
//! each chunk with its CRC (flate2 and crc32fast are already in the tree).
//! Also base64, which is how Jupyter carries a PNG inside JSON.

use std::io::Write;

/// An encoded PNG and its size in pixels.
pub struct Png {
    pub bytes: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// Encode 8-bit RGB pixels, row-major, `width * height * 3` bytes.
pub fn encode_rgb(width: u32, height: u32, rgb: &[u8]) -> Png {
    let stride = width as usize * 3;
    debug_assert_eq!(rgb.len(), stride * height as usize);
    // Each row starts with its filter: 1 (Sub) stores a pixel as its difference
    // from the one on its left, so flat areas become runs of zeros.
    let mut raw = Vec::with_capacity((stride + 1) * height as usize);
    for row in rgb.chunks(stride.max(1)).take(height as usize) {
        raw.push(1);
        for (i, &b) in row.iter().enumerate() {
            let left = if i >= 3 { row[i - 3] } else { 0 };
            raw.push(b.wrapping_sub(left));
        }
    }
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing to a Vec cannot fail.
    let _ = z.write_all(&raw);
    let idat = z.finish().unwrap_or_default();
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    // 8 bits per channel, colour type 2 (RGB), deflate, filtering per row, no interlace.
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut bytes, b"IHDR", &ihdr);
    chunk(&mut bytes, b"IDAT", &idat);
    chunk(&mut bytes, b"IEND", &[]);
    Png {
        bytes,
        width,
        height,
    }
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

/// Standard base64 with padding.
pub fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_of_rfc4648_vectors() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn a_png_inflates_back_to_its_rows() {
        use std::io::Read;
        let rgb: Vec<u8> = (0..2 * 3 * 3).map(|i| (i * 13) as u8).collect();
        let png = encode_rgb(3, 2, &rgb);
        let b = &png.bytes;
        assert_eq!(&b[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(&b[12..16], b"IHDR");
        assert_eq!(&b[16..24], &[0, 0, 0, 3, 0, 0, 0, 2]);
        let idat_len = u32::from_be_bytes(b[33..37].try_into().unwrap()) as usize;
        assert_eq!(&b[37..41], b"IDAT");
        let mut raw = vec![];
        flate2::read::ZlibDecoder::new(&b[41..41 + idat_len])
            .read_to_end(&mut raw)
            .unwrap();
        assert_eq!(raw.len(), 2 * (1 + 9));
        // Undo the Sub filter of the first row.
        let mut row = raw[1..10].to_vec();
        for i in 3..9 {
            row[i] = row[i].wrapping_add(row[i - 3]);
        }
        assert_eq!(row, rgb[..9]);
        assert!(b.ends_with(&[0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xae, 0x42, 0x60, 0x82]));
    }
}
