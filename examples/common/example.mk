# Shared rules of the example Makefiles. Honours CC (default mpicc; CC=tempi-cc make gives the
# compile-time tier), CFLAGS, LDFLAGS, LDLIBS, and OUT (output folder, default: this folder).
# CUDA=1 (the default when nvcc is on PATH or in /usr/local/cuda) builds the --device support:
# -DEX_HAVE_CUDA and the CUDA runtime. CUDA=0 builds host-only programs.
ifeq ($(origin CC),default)
CC = mpicc
endif
CUDA_HOME ?= $(shell dirname $$(dirname $$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)))
CUDA ?= $(if $(wildcard $(CUDA_HOME)/include/cuda_runtime_api.h),1,0)
OUT ?= .
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -Wall
ifeq ($(CUDA),1)
CPPFLAGS += -DEX_HAVE_CUDA -I$(CUDA_HOME)/include
LDLIBS += -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcudart
endif
