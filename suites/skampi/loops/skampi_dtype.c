//go:build mpi

/* skampi_dtype.c: the datatypes of the typed SKaMPI operations, built
 * from the program the Go side compiles (skampi_types). */
#include "skampi_ctx.h"

static int base_of(MPI_Datatype t) {
	return t == MPI_BYTE || t == MPI_CHAR || t == MPI_INT || t == MPI_FLOAT || t == MPI_DOUBLE;
}

static const MPI_Datatype *base_type(int64_t kind) {
	static MPI_Datatype t[5];
	t[0] = MPI_BYTE, t[1] = MPI_CHAR, t[2] = MPI_INT, t[3] = MPI_FLOAT, t[4] = MPI_DOUBLE;
	return kind >= 0 && kind < 5 ? &t[kind] : NULL;
}

/* ints reads n numbers of the program into an int array (freed by the
 * caller); NULL when the program ends early or a number passes an int. */
static int *ints(const int64_t **pc, const int64_t *end, int64_t n) {
	if (n < 0 || n > end - *pc) return NULL;
	int *out = malloc(sizeof(int) * (n > 0 ? n : 1));
	for (int64_t i = 0; out && i < n; i++) {
		if ((*pc)[i] < 0 || (*pc)[i] > INT_MAX) {
			free(out);
			return NULL;
		}
		out[i] = (int)(*pc)[i];
	}
	*pc += n;
	return out;
}

/* type_struct builds a struct node: n, lb, extent, counts, byte
 * displacements, then n inner types; it is resized to lb and extent. */
static int type_struct(const int64_t **pc, const int64_t *end, MPI_Datatype *t, int depth) {
	if (end - *pc < 3) return MPI_ERR_TYPE;
	int64_t n = (*pc)[0], lb = (*pc)[1], ext = (*pc)[2];
	*pc += 3;
	int *bl = ints(pc, end, n), *d = ints(pc, end, n), rc = 0, made = 0;
	MPI_Aint *disp = calloc(n > 0 ? n : 1, sizeof(MPI_Aint));
	MPI_Datatype *in = calloc(n > 0 ? n : 1, sizeof(MPI_Datatype)), raw;
	if (!bl || !d || !disp || !in) rc = MPI_ERR_TYPE;
	for (int64_t i = 0; i < n && !rc; i++, made++) {
		disp[i] = d[i];
		rc = sk_type_build(pc, end, &in[i], depth + 1);
	}
	if (!rc) rc = MPI_Type_create_struct((int)n, bl, disp, in, &raw);
	if (!rc) rc = MPI_Type_create_resized(raw, lb, ext, t);
	if (!rc) rc = MPI_Type_free(&raw);
	for (int i = 0; i < made; i++)
		if (!base_of(in[i])) MPI_Type_free(&in[i]);
	free(bl), free(d), free(disp), free(in);
	return rc;
}

/* sk_type_build builds (not commits) the type whose program starts at *pc
 * (skampi.Program), advancing *pc past it. */
int sk_type_build(const int64_t **pc, const int64_t *end, MPI_Datatype *t, int depth) {
	if (depth > 64 || end - *pc < 2) return MPI_ERR_TYPE;
	int64_t ctor = *(*pc)++;
	if (ctor == 0) {
		const MPI_Datatype *b = base_type(*(*pc)++);
		if (!b) return MPI_ERR_TYPE;
		*t = *b;
		return 0;
	}
	if (ctor == 6) return type_struct(pc, end, t, depth);
	int64_t nargs = ctor == 1 ? 1 : ctor <= 3 ? 3 : ctor == 8 ? 2 : 1;
	if (end - *pc < nargs) return MPI_ERR_TYPE;
	const int64_t *a = *pc;
	*pc += nargs;
	int *x = NULL, *y = NULL, *z = NULL, rc = 0;
	int64_t n = a[0];
	switch (ctor) { /* the lists of indexed, indexed-block and subarray */
	case 4: x = ints(pc, end, n), y = ints(pc, end, n); break;
	case 5: x = ints(pc, end, 1), y = ints(pc, end, n); break;
	case 7: x = ints(pc, end, n), y = ints(pc, end, n), z = ints(pc, end, n); break;
	}
	MPI_Datatype in;
	rc = sk_type_build(pc, end, &in, depth + 1);
	if (!rc) switch (ctor) {
		case 1: rc = MPI_Type_contiguous((int)a[0], in, t); break;
		case 2: rc = MPI_Type_vector((int)a[0], (int)a[1], (int)a[2], in, t); break;
		case 3: rc = MPI_Type_create_hvector((int)a[0], (int)a[1], (MPI_Aint)a[2], in, t); break;
		case 4: rc = x && y ? MPI_Type_indexed((int)n, x, y, in, t) : MPI_ERR_TYPE; break;
		case 5: rc = x && y ? MPI_Type_create_indexed_block((int)n, x[0], y, in, t) : MPI_ERR_TYPE; break;
		case 7: rc = x && y && z ? MPI_Type_create_subarray((int)n, x, y, z, MPI_ORDER_C, in, t) : MPI_ERR_TYPE; break;
		case 8: rc = MPI_Type_create_resized(in, (MPI_Aint)a[0], (MPI_Aint)a[1], t); break;
		default: rc = MPI_ERR_TYPE;
		}
	if (!rc && !base_of(in)) MPI_Type_free(&in);
	free(x), free(y), free(z);
	return rc;
}

static int build_side(skampi_side *s, const int64_t *prog, int64_t nprog, const int64_t *runs,
                      int64_t nruns, int64_t count, int64_t ext) {
	s->prog = malloc(sizeof(int64_t) * (nprog > 0 ? nprog : 1));
	s->runs = malloc(sizeof(int64_t) * 2 * (nruns > 0 ? nruns : 1));
	if (!s->prog || !s->runs || nruns < 1) return MPI_ERR_NO_MEM;
	memcpy(s->prog, prog, sizeof(int64_t) * nprog);
	memcpy(s->runs, runs, sizeof(int64_t) * 2 * nruns);
	s->nprog = nprog;
	s->nruns = nruns;
	s->count = count;
	s->ext = ext;
	const int64_t *pc = s->prog;
	int rc = sk_type_build(&pc, pc + nprog, &s->type, 0);
	if (!rc && pc != s->prog + nprog) rc = MPI_ERR_TYPE;
	if (!rc && base_of(s->type)) rc = MPI_Type_dup(s->type, &s->type); /* freed like the rest */
	return rc ? rc : MPI_Type_commit(&s->type);
}

int skampi_types_new(const int64_t *prog[2], const int64_t nprog[2], const int64_t *runs[2],
                     const int64_t nruns[2], const int64_t count[2], const int64_t ext[2],
                     skampi_types **out) {
	skampi_types *t = calloc(1, sizeof *t);
	if (!t) return MPI_ERR_NO_MEM;
	t->s.type = t->r.type = MPI_DATATYPE_NULL;
	int rc = build_side(&t->s, prog[0], nprog[0], runs[0], nruns[0], count[0], ext[0]);
	if (!rc) rc = build_side(&t->r, prog[1], nprog[1], runs[1], nruns[1], count[1], ext[1]);
	if (rc) {
		skampi_types_free(t);
		t = NULL;
	}
	*out = t;
	return rc;
}

void skampi_types_free(skampi_types *t) {
	if (!t) return;
	skampi_side *sides[2] = {&t->s, &t->r};
	for (int i = 0; i < 2; i++) {
		if (sides[i]->type != MPI_DATATYPE_NULL) MPI_Type_free(&sides[i]->type);
		free(sides[i]->prog);
		free(sides[i]->runs);
	}
	free(t);
}

int skampi_type_info(const skampi_types *t, int side, int64_t info[5]) {
	MPI_Datatype d = side ? t->r.type : t->s.type;
	MPI_Aint lb, ext, tlb, text;
	int size;
	int rc = MPI_Type_size(d, &size);
	if (!rc) rc = MPI_Type_get_extent(d, &lb, &ext);
	if (!rc) rc = MPI_Type_get_true_extent(d, &tlb, &text);
	info[0] = size, info[1] = lb, info[2] = ext, info[3] = tlb, info[4] = text;
	return rc;
}
