# Emulates heev_apply_q.cu's k_t S tiles (8x8x4 fragments, the 10 upper tiles over 4 warps) against V^H V.
import numpy as np
rng=np.random.default_rng(2)
kNb=32; kChunk=32
def mma8(d,a,b):
    A=np.zeros((8,4)); B=np.zeros((4,8))
    for l in range(32):
        g,q=l>>2,l&3; A[g,q]=a[l]; B[q,g]=b[l]
    D=A@B
    for l in range(32):
        g,q=l>>2,l&3; d[l][0]+=D[g,2*q]; d[l][1]+=D[g,2*q+1]
def run(m,k):
    V=rng.standard_normal((m,kNb))+1j*rng.standard_normal((m,kNb))
    for j in range(kNb):
        V[:min(j,m),j]=0
        if j<m: V[j,j]=1
    V[:,k:]=0
    S=V.conj().T@V
    ss={}
    kTiles=10
    for w in range(4):
        tiles=[]
        for e in range(3):
            idx=w+4*e; t=idx if idx<kTiles else 0; r=0
            while t>=4-r: t-=4-r; r+=1
            tiles.append((r if idx<kTiles else -1, r+t))
        sr=[[[0.0,0.0] for _ in range(32)] for _ in range(3)]; si=[[[0.0,0.0] for _ in range(32)] for _ in range(3)]
        for r0 in range(0,m,kChunk):
            sv=np.zeros((kChunk,kNb),complex)
            for r in range(kChunk):
                if r0+r<m: sv[r,:k]=V[r0+r,:k]
            for e,(ta,tc) in enumerate(tiles):
                if ta<0: continue
                for ks in range(kChunk//4):
                    if r0+4*ks+3<8*tc: continue
                    va=[sv[4*ks+(l&3),8*ta+(l>>2)] for l in range(32)]; vc=[sv[4*ks+(l&3),8*tc+(l>>2)] for l in range(32)]
                    mma8(sr[e],[x.real for x in va],[x.real for x in vc]); mma8(sr[e],[x.imag for x in va],[x.imag for x in vc])
                    mma8(si[e],[x.real for x in va],[x.imag for x in vc]); mma8(si[e],[-x.imag for x in va],[x.real for x in vc])
        for e,(ta,tc) in enumerate(tiles):
            if ta<0: continue
            for l in range(32):
                g,q=l>>2,l&3; a=8*ta+g
                for i in range(2):
                    c=8*tc+2*q+i
                    if a<c: ss[(a,c)]=sr[e][l][i]+1j*si[e][l][i]
    err=max(abs(ss[(a,c)]-S[a,c]) for a in range(kNb) for c in range(a+1,kNb))
    print(m,k,len(ss),"err %.2e"%err)
for m,k in ((32,32),(64,32),(127,31),(5,4),(100,32)):
    run(m,k)
