//! The viewport's image: a colour texture plus depth buffer behind a framebuffer we own.
//!
//! three-d renders into it (through `RenderTarget::from_framebuffer`) before the UI paints,
//! never in the middle of the UI's pass: there, switching framebuffers made a tile-based
//! software renderer (llvmpipe) finish the half-painted window first and load it again. The
//! UI's pass then only copies the image onto the window with [`blit`]: no blending and no
//! filtering, which under llvmpipe costs a fraction of drawing it as a textured quad.

use three_d::context::{self as gl, HasContext};

/// Colour texture (RGBA8, sRGB-encoded values, rows bottom-up) with a depth renderbuffer.
pub struct Offscreen {
    texture: gl::Texture,
    depth: gl::Renderbuffer,
    fbo: gl::Framebuffer,
    size: [u32; 2],
}

impl Offscreen {
    pub fn new(ctx: &gl::Context) -> Result<Self, String> {
        // SAFETY: plain object creation on the current context; names are checked by glow.
        unsafe {
            let texture = ctx.create_texture()?;
            let depth = ctx.create_renderbuffer()?;
            let fbo = ctx.create_framebuffer()?;
            ctx.bind_texture(gl::TEXTURE_2D, Some(texture));
            for (param, value) in [
                (gl::TEXTURE_MIN_FILTER, gl::NEAREST),
                (gl::TEXTURE_MAG_FILTER, gl::NEAREST),
                (gl::TEXTURE_WRAP_S, gl::CLAMP_TO_EDGE),
                (gl::TEXTURE_WRAP_T, gl::CLAMP_TO_EDGE),
            ] {
                ctx.tex_parameter_i32(gl::TEXTURE_2D, param, value as i32);
            }
            ctx.bind_texture(gl::TEXTURE_2D, None);
            Ok(Self {
                texture,
                depth,
                fbo,
                size: [0, 0],
            })
        }
    }

    pub fn framebuffer(&self) -> gl::Framebuffer {
        self.fbo
    }

    /// What [`blit`] needs to show the image.
    pub fn handle(&self) -> ImageHandle {
        ImageHandle {
            fbo: self.fbo,
            size: self.size,
        }
    }

    /// Makes the image `size` pixels, reallocating storage only when the size changed.
    pub fn ensure_size(&mut self, ctx: &gl::Context, size: [u32; 2]) {
        let size = [size[0].max(1), size[1].max(1)];
        if self.size == size {
            return;
        }
        let (w, h) = (size[0] as i32, size[1] as i32);
        // SAFETY: the objects were created on this context; storage is allocated, not read.
        unsafe {
            ctx.bind_texture(gl::TEXTURE_2D, Some(self.texture));
            ctx.tex_image_2d(
                gl::TEXTURE_2D,
                0,
                gl::RGBA8 as i32,
                w,
                h,
                0,
                gl::RGBA,
                gl::UNSIGNED_BYTE,
                gl::PixelUnpackData::Slice(None),
            );
            ctx.bind_texture(gl::TEXTURE_2D, None);
            ctx.bind_renderbuffer(gl::RENDERBUFFER, Some(self.depth));
            ctx.renderbuffer_storage(gl::RENDERBUFFER, gl::DEPTH_COMPONENT24, w, h);
            ctx.bind_renderbuffer(gl::RENDERBUFFER, None);
            ctx.bind_framebuffer(gl::FRAMEBUFFER, Some(self.fbo));
            ctx.framebuffer_texture_2d(
                gl::FRAMEBUFFER,
                gl::COLOR_ATTACHMENT0,
                gl::TEXTURE_2D,
                Some(self.texture),
                0,
            );
            ctx.framebuffer_renderbuffer(
                gl::FRAMEBUFFER,
                gl::DEPTH_ATTACHMENT,
                gl::RENDERBUFFER,
                Some(self.depth),
            );
            ctx.bind_framebuffer(gl::FRAMEBUFFER, None);
        }
        self.size = size;
    }
}

/// The framebuffer holding a rendered image, and its size in pixels.
#[derive(Debug, Clone, Copy)]
pub struct ImageHandle {
    fbo: gl::Framebuffer,
    size: [u32; 2],
}

/// Copies the image onto the default framebuffer at `dst` = (x, y from the bottom-left,
/// width, height) in pixels, within the current scissor box, then rebinds the default
/// framebuffer.
pub fn blit(ctx: &gl::Context, image: ImageHandle, dst: [i32; 4]) {
    let [x, y, w, h] = dst;
    // SAFETY: both framebuffers exist on this context; the copy reads and writes colour only.
    unsafe {
        ctx.bind_framebuffer(gl::READ_FRAMEBUFFER, Some(image.fbo));
        ctx.bind_framebuffer(gl::DRAW_FRAMEBUFFER, None);
        ctx.blit_framebuffer(
            0,
            0,
            image.size[0] as i32,
            image.size[1] as i32,
            x,
            y,
            x + w,
            y + h,
            gl::COLOR_BUFFER_BIT,
            gl::NEAREST,
        );
        ctx.bind_framebuffer(gl::FRAMEBUFFER, None);
    }
}
